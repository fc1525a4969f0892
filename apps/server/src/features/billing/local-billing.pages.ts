import { billingMessages } from '@waitlist/contract';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import type { LocalBillingProvider } from '../../providers/billing/local.ts';
import { PaymentError } from '../../providers/billing/payment-error.ts';
import type { BillingService } from './billing.service.ts';
import {
  checkoutCompleteHtml,
  checkoutHtml,
  checkoutTitle,
  expiredLinkHtml,
  invoiceHtml,
  page,
  portalHtml,
} from './local-billing.views.ts';

const SESSION_ID = /^[\w-]{8,100}$/;

/** Parses "MM/YY" or "MM/YYYY" from the expiry field; NaN when it is not one. */
function parseExpiry(value: string): { expMonth: number; expYear: number } {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(value);
  return match ? { expMonth: Number(match[1]), expYear: Number(match[2]) } : { expMonth: NaN, expYear: NaN };
}

/**
 * The local provider's "hosted" pages, as Stripe's Checkout, billing portal and hosted invoices are for
 * Stripe. Registered only while billing is local. Plain server-rendered HTML: no script, inline styles only,
 * and forms that post to this server (the CSP below says exactly that).
 */
export const localBillingPages: FastifyPluginAsync<{
  billingService: BillingService;
  provider: LocalBillingProvider;
  publicUrl: string;
}> = async (app, { billingService, provider, publicUrl }) => {
  const publicOrigin = new URL(publicUrl).origin;
  const csp = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    // The checkout form posts here, and its answer redirects to the web app's success page.
    `form-action 'self' ${publicOrigin}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  const accountUrl = `${publicUrl}/account?tab=billing`;

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 8 * 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  function html(reply: FastifyReply, status: number, title: string, body: string) {
    return reply
      .status(status)
      .header('content-security-policy', csp)
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .type('text/html; charset=utf-8')
      .send(page(title, body));
  }

  const notFound = (reply: FastifyReply, what: string) =>
    html(reply, 404, 'Link expired', expiredLinkHtml(what, accountUrl));

  /** A page of one provider object found by its id; an unknown or malformed id reads as an expired link. */
  function pageById<T>(
    path: string,
    what: string,
    find: (id: string) => Promise<T | undefined>,
    render: (found: T, reply: FastifyReply) => unknown,
  ) {
    app.get<{ Params: { id: string } }>(path, { schema: { hide: true } }, async (request, reply) => {
      const found = SESSION_ID.test(request.params.id) ? await find(request.params.id) : undefined;
      return found ? render(found, reply) : notFound(reply, what);
    });
  }

  // ---- checkout ----
  async function checkoutPage(reply: FastifyReply, id: string, error?: string) {
    const session = SESSION_ID.test(id) ? await provider.findCheckoutSession(id) : undefined;
    if (!session || session.status === 'expired') return notFound(reply, 'checkout');
    if (session.status === 'complete') {
      return html(reply, 200, 'Checkout complete', checkoutCompleteHtml(accountUrl));
    }
    return html(reply, error ? 400 : 200, checkoutTitle(session), checkoutHtml(session, error));
  }

  app.get<{ Params: { id: string } }>(
    '/billing/local/checkout/:id',
    { schema: { hide: true } },
    (request, reply) => checkoutPage(reply, request.params.id),
  );

  app.post<{ Params: { id: string }; Body: Record<string, string> | undefined }>(
    '/billing/local/checkout/:id',
    { schema: { hide: true } },
    async (request, reply) => {
      const { id } = request.params;
      if (!SESSION_ID.test(id)) return notFound(reply, 'checkout');
      const form = request.body ?? {};
      const expiry = parseExpiry(String(form.exp ?? ''));
      if (Number.isNaN(expiry.expMonth)) return checkoutPage(reply, id, billingMessages.invalidExpiry);
      try {
        const { redirectUrl } = await billingService.completeLocalCheckout(id, {
          number: String(form.number ?? ''),
          cvc: String(form.cvc ?? ''),
          ...expiry,
        });
        return reply.redirect(redirectUrl, 303);
      } catch (error) {
        if (error instanceof PaymentError && error.code === 'not_found') return notFound(reply, 'checkout');
        if (error instanceof PaymentError || error instanceof AppError) {
          return checkoutPage(reply, id, error.message);
        }
        throw error;
      }
    },
  );

  // ---- billing portal ----
  pageById('/billing/local/portal/:id', 'billing portal', provider.findPortal, async (portal, reply) =>
    html(reply, 200, 'Billing portal', portalHtml(portal)),
  );

  // ---- hosted invoice and its PDF ----
  pageById('/billing/local/invoices/:id', 'invoice', provider.findInvoiceDocument, async (document, reply) =>
    html(reply, 200, `Invoice ${document.invoice.number}`, invoiceHtml(document, accountUrl)),
  );

  pageById(
    '/billing/local/invoices/:id/pdf',
    'invoice',
    provider.findInvoiceDocument,
    async (document, reply) => {
      // pdfkit (and its fonts) load on the first PDF, not at start-up (issue 16).
      const { renderInvoicePdf } = await import('./invoice-pdf.ts');
      const pdf = await renderInvoicePdf(document);
      return reply
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `inline; filename="invoice-${document.invoice.number}.pdf"`)
        .type('application/pdf')
        .send(pdf);
    },
  );
};
