import { id, list, ok } from './account.ts';
import { invoiceObject } from './objects.ts';
import type { FakeRoutes } from './request.ts';

/** Invoices, Checkout Sessions and billing-portal sessions of the fake Stripe API. */
export const invoiceAndSessionRoutes: FakeRoutes = ({ invoices }, { method, path, query, body }) => {
  if (method === 'GET' && path === '/v1/invoices') {
    const data = [...invoices.values()]
      .filter((invoice) => invoice.customer === query.customer)
      .sort((a, b) => b.created - a.created)
      .map(invoiceObject);
    return ok(list('/v1/invoices', data));
  }
  if (method === 'POST' && path === '/v1/checkout/sessions') {
    const sessionId = id('cs_test');
    return ok({
      id: sessionId,
      object: 'checkout.session',
      mode: body.mode,
      customer: body.customer,
      success_url: body.success_url,
      cancel_url: body.cancel_url,
      status: 'open',
      url: `https://checkout.stripe.test/c/pay/${sessionId}`,
    });
  }
  if (method === 'POST' && path === '/v1/billing_portal/sessions') {
    const sessionId = id('bps');
    return ok({
      id: sessionId,
      object: 'billing_portal.session',
      customer: body.customer,
      return_url: body.return_url,
      url: `https://billing.stripe.test/p/session/${sessionId}`,
    });
  }
  return undefined;
};
