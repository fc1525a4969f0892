import type { UseQueryResult } from '@tanstack/react-query';
import { billingMessages, type Invoice } from '@waitlist/contract';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import type { BadgeTone } from '../utils/badges.ts';
import { formatShortDate, timestampToDate } from '../utils/billing-time.ts';
import { formatMoney } from '../utils/pricing.ts';
import './invoice-history.css';

const statusBadges: Record<Invoice['status'], { label: string; tone: BadgeTone }> = {
  paid: { label: 'Paid', tone: 'success' },
  open: { label: 'Open', tone: 'warning' },
  void: { label: 'Void', tone: 'neutral' },
  draft: { label: 'Draft', tone: 'neutral' },
  uncollectible: { label: 'Uncollectible', tone: 'danger' },
};

/** SPEC §2 Billing tab: invoice history (date, number, amount, status, View and PDF). */
export function InvoiceHistory({ invoices }: { invoices: UseQueryResult<Invoice[]> }) {
  return (
    <Card>
      <header className="card__header">
        <h2 className="card__title">Invoice History</h2>
        <p className="card__subtitle">Every charge, with its receipt.</p>
      </header>
      {invoices.isPending ? (
        <Skeleton label="Loading your invoices" lines={3} />
      ) : invoices.isError ? (
        <Alert tone="error">
          {screenErrorMessage(invoices.error, billingMessages.fetchInvoicesFailed)}{' '}
          <Button variant="link" onClick={() => invoices.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : invoices.data.length === 0 ? (
        <p className="empty-note">No invoices yet. They appear here after your first payment.</p>
      ) : (
        <InvoiceTable invoices={invoices.data} />
      )}
    </Card>
  );
}

function InvoiceTable({ invoices }: { invoices: Invoice[] }) {
  const newestFirst = [...invoices].sort((a, b) => b.created - a.created);
  return (
    <table className="data-table invoice-table">
      <caption className="visually-hidden">Invoice history</caption>
      <thead>
        <tr>
          <th scope="col">Date</th>
          <th scope="col">Number</th>
          <th scope="col">Amount</th>
          <th scope="col">Status</th>
          <th scope="col">
            <span className="visually-hidden">Links</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {newestFirst.map((invoice) => {
          const created = timestampToDate(invoice.created);
          const status = statusBadges[invoice.status] ?? { label: invoice.status, tone: 'neutral' };
          const amount = invoice.status === 'paid' ? invoice.amount_paid : invoice.amount_due;
          return (
            <tr key={invoice.id}>
              <td data-label="Date">{created ? formatShortDate(created) : '—'}</td>
              <td data-label="Number" className="invoice-table__number">
                {invoice.number}
              </td>
              <td data-label="Amount" className="invoice-table__amount">
                {formatMoney(amount, invoice.currency)}
              </td>
              <td data-label="Status">
                <Badge tone={status.tone}>{status.label}</Badge>
              </td>
              <td className="invoice-table__links">
                {invoice.hosted_invoice_url ? (
                  <a
                    href={invoice.hosted_invoice_url}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={`View invoice ${invoice.number}`}
                  >
                    View
                  </a>
                ) : null}
                {invoice.invoice_pdf ? (
                  <a
                    href={invoice.invoice_pdf}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={`PDF of invoice ${invoice.number}`}
                  >
                    PDF
                  </a>
                ) : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
