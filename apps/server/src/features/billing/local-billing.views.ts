import { planLabels } from '@waitlist/contract';
import { formatCardBrand, formatDate, formatMoney } from '../../lib/format.ts';
import { escapeHtml } from '../../lib/html.ts';
import type { CheckoutSessionView, InvoiceDocument, PortalView } from '../../providers/billing/local.ts';

/**
 * The HTML of the local provider's hosted pages (local-billing.pages.ts serves them): no script, inline
 * styles.
 */

const STYLE = `
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;background:#f5f6fa;color:#111827;margin:0;padding:24px}
main{max-width:640px;margin:auto}h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:0 0 12px}
.card{background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:20px 24px;margin-bottom:16px}
.test{background:#fef3c7;border:1px solid #f59e0b;color:#78350f;border-radius:10px;padding:10px 14px;margin-bottom:16px;font-size:14px}
.error{background:#fee2e2;border:1px solid #ef4444;color:#7f1d1d;border-radius:10px;padding:10px 14px;margin-bottom:16px}
.muted{color:#4b5563;font-size:14px}.amount{font-size:28px;font-weight:700;margin:4px 0}
label{display:block;font-weight:600;font-size:14px;margin:12px 0 4px}
input{box-sizing:border-box;width:100%;font-size:16px;padding:10px 12px;border:1px solid #cbd5e1;border-radius:8px}
.row{display:flex;gap:12px}.row>div{flex:1}
button{margin-top:20px;width:100%;font-size:16px;font-weight:600;padding:12px;border:0;border-radius:8px;background:#4f46e5;color:#fff;cursor:pointer}
a{color:#4338ca}table{width:100%;border-collapse:collapse;font-size:14px}th,td{text-align:left;padding:8px 4px;border-bottom:1px solid #f1f5f9}
.badge{display:inline-block;font-size:12px;font-weight:600;padding:2px 8px;border-radius:999px;background:#e0e7ff;color:#3730a3}
.badge.paid,.badge.active{background:#dcfce7;color:#166534}.badge.open,.badge.past_due{background:#fee2e2;color:#991b1b}
ul.cards{list-style:none;padding:0;margin:0}ul.cards li{padding:6px 0}code{font-size:13px}
`;

export function page(title: string, body: string) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} · Waitlist &amp; Text</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

const TEST_CARDS_NOTE = `<p class="test"><strong>Test mode.</strong> No real card is charged. Use
<code>4242 4242 4242 4242</code> (succeeds), <code>4000 0000 0000 0002</code> (declined),
<code>4000 0000 0000 9995</code> (insufficient funds) or <code>4000 0000 0000 0341</code> (later charges fail),
any future expiry and any 3-digit CVC.</p>`;

/** An unknown, malformed or expired link. */
export function expiredLinkHtml(what: string, accountUrl: string) {
  return `<div class="card"><h1>This ${what} link has expired</h1><p class="muted">Open it again from your account.</p><p><a href="${escapeHtml(accountUrl)}">Back to your account</a></p></div>`;
}

export function checkoutCompleteHtml(accountUrl: string) {
  return `<div class="card"><h1>Payment received</h1><p class="muted">This checkout is complete.</p><p><a href="${escapeHtml(accountUrl)}">Back to your account</a></p></div>`;
}

export const checkoutTitle = (session: CheckoutSessionView) =>
  `Checkout: ${planLabels[session.plan]} (${session.billingPeriod})`;

/** The checkout form: the plan and amount, a test-card form, and the error of the last attempt if any. */
export function checkoutHtml(session: CheckoutSessionView, error?: string) {
  const plan = `${planLabels[session.plan]} (${session.billingPeriod})`;
  return `${TEST_CARDS_NOTE}
<div class="card"><p class="muted">Subscribe to</p><h1>${escapeHtml(plan)}</h1>
<p class="amount">${escapeHtml(formatMoney(session.amount, session.currency))}<span class="muted"> / ${session.billingPeriod === 'monthly' ? 'month' : 'year'}</span></p>
<p class="muted">Billed to ${escapeHtml(session.customerEmail)}. Renews automatically; cancel any time from your account.</p></div>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form class="card" method="post" action="/billing/local/checkout/${escapeHtml(session.id)}">
<h2>Card details</h2>
<label for="number">Card number</label><input id="number" name="number" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" required>
<div class="row"><div><label for="exp">Expiry (MM/YY)</label><input id="exp" name="exp" autocomplete="cc-exp" placeholder="12/34" required></div>
<div><label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123" required></div></div>
<button type="submit">Pay ${escapeHtml(formatMoney(session.amount, session.currency))}</button>
</form>
<p><a href="${escapeHtml(session.cancelUrl)}">Cancel and go back</a></p>`;
}

/** The billing portal: the subscription, the cards and the invoices, read only. */
export function portalHtml(portal: PortalView) {
  const { subscription } = portal;
  const subscriptionHtml = subscription
    ? `<p><strong>${escapeHtml(`${planLabels[subscription.plan]} (${subscription.billingPeriod})`)}</strong> <span class="badge ${subscription.status}">${subscription.status.replace('_', ' ')}</span></p>
<p class="muted">${subscription.cancel_at_period_end ? 'Ends' : 'Renews'} on ${formatDate(new Date(subscription.current_period_end * 1000))}.${
        subscription.pending_change
          ? ` Then changes to ${escapeHtml(`${planLabels[subscription.pending_change.plan]} (${subscription.pending_change.billingPeriod})`)}.`
          : ''
      }</p>`
    : '<p class="muted">No paid subscription: you are on the free trial.</p>';
  const cards = portal.paymentMethods.length
    ? `<ul class="cards">${portal.paymentMethods
        .map(
          (card) =>
            `<li>${escapeHtml(formatCardBrand(card.brand))} •••• ${escapeHtml(card.last4)} · expires ${String(card.exp_month).padStart(2, '0')}/${card.exp_year}${card.isDefault ? ' <span class="badge">Default</span>' : ''}</li>`,
        )
        .join('')}</ul>`
    : '<p class="muted">No cards yet.</p>';
  const invoices = portal.invoices.length
    ? `<table><thead><tr><th>Date</th><th>Number</th><th>Amount</th><th>Status</th><th></th></tr></thead><tbody>${portal.invoices
        .map(
          (invoice) =>
            `<tr><td>${formatDate(new Date(invoice.created * 1000))}</td><td>${escapeHtml(invoice.number)}</td><td>${formatMoney(invoice.amount_due, invoice.currency)}</td><td><span class="badge ${invoice.status}">${invoice.status}</span></td><td><a href="${escapeHtml(invoice.hosted_invoice_url)}">View</a> · <a href="${escapeHtml(invoice.invoice_pdf)}">PDF</a></td></tr>`,
        )
        .join('')}</tbody></table>`
    : '<p class="muted">No invoices yet.</p>';
  return `<p class="test"><strong>Test mode.</strong> The local billing portal: change your plan, cards and cancellation in the app.</p>
<h1>Billing</h1><p class="muted">${escapeHtml(portal.customerEmail)}</p>
<section class="card"><h2>Subscription</h2>${subscriptionHtml}</section>
<section class="card"><h2>Payment methods</h2>${cards}</section>
<section class="card"><h2>Invoices</h2>${invoices}</section>
<p><a href="${escapeHtml(portal.returnUrl)}">← Return to Waitlist &amp; Text</a></p>`;
}

/** The hosted invoice: amount, status, the line, how it was paid, and the PDF link. */
export function invoiceHtml(document: InvoiceDocument, accountUrl: string) {
  const { invoice, customer } = document;
  const money = (cents: number) => formatMoney(cents, invoice.currency);
  return `<div class="card"><p class="muted">Invoice from Waitlist &amp; Text</p>
<h1>${escapeHtml(money(invoice.amount_due))} <span class="badge ${invoice.status}">${invoice.status}</span></h1>
<p class="muted">Number ${escapeHtml(invoice.number)} · ${formatDate(new Date(invoice.created * 1000))}</p>
<p class="muted">Billed to ${escapeHtml(customer.name ? `${customer.name}, ${customer.email}` : customer.email)}</p></div>
<div class="card"><table><thead><tr><th>Description</th><th>Amount</th></tr></thead><tbody>
<tr><td>${escapeHtml(invoice.description)}</td><td>${money(invoice.amount_due)}</td></tr></tbody></table>
<p><strong>Amount paid ${money(invoice.amount_paid)}</strong>${document.card && document.paidAt ? ` <span class="muted">with ${escapeHtml(formatCardBrand(document.card.brand))} •••• ${escapeHtml(document.card.last4)} on ${formatDate(document.paidAt)}</span>` : ''}</p>
<p><a href="${escapeHtml(invoice.invoice_pdf)}">Download PDF</a></p></div>
<p><a href="${escapeHtml(accountUrl)}">Back to your account</a></p>`;
}
