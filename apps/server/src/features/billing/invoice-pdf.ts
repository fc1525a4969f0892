import PDFDocument from 'pdfkit';
import { formatCardBrand, formatDate, formatMoney } from '../../lib/format.ts';
import type { InvoiceDocument } from '../../providers/billing/local.ts';

/** A real PDF of a local invoice (the `invoice_pdf` link), drawn with pdfkit's built-in Helvetica. */
export function renderInvoicePdf(document: InvoiceDocument): Promise<Buffer> {
  const { invoice, customer } = document;
  const pdf = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: `Invoice ${invoice.number}`, Author: 'Waitlist & Text' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });

  const money = (cents: number) => formatMoney(cents, invoice.currency);
  const created = new Date(invoice.created * 1000);
  const left = 56;
  const right = pdf.page.width - 56;
  const width = right - left;

  pdf.font('Helvetica-Bold').fontSize(22).fillColor('#111827').text('Waitlist & Text', left, 56);
  pdf
    .font('Helvetica')
    .fontSize(10)
    .fillColor('#6b7280')
    .text('Test mode: local billing, no real payment', left);
  pdf
    .font('Helvetica-Bold')
    .fontSize(18)
    .fillColor('#111827')
    .text('Invoice', left, 56, { width, align: 'right' });
  pdf
    .font('Helvetica')
    .fontSize(10)
    .fillColor('#374151')
    .text(`Number ${invoice.number}`, left, 82, { width, align: 'right' })
    .text(`Date ${formatDate(created)}`, { width, align: 'right' })
    .text(`Status ${invoice.status.toUpperCase()}`, { width, align: 'right' });

  pdf.moveDown(3);
  pdf.font('Helvetica-Bold').fontSize(11).fillColor('#111827').text('Bill to', left);
  pdf.font('Helvetica').fontSize(10).fillColor('#374151');
  if (customer.name) pdf.text(customer.name);
  pdf.text(customer.email);
  const address = customer.address;
  if (address) {
    const lines = [
      address.line1,
      [address.city, address.state, address.postal_code].filter(Boolean).join(', '),
    ];
    for (const line of lines) if (line) pdf.text(line);
    if (address.country) pdf.text(address.country);
  }

  pdf.moveDown(2);
  const tableTop = pdf.y;
  pdf.font('Helvetica-Bold').fontSize(10).fillColor('#111827');
  pdf.text('Description', left, tableTop, { width: width - 120 });
  pdf.text('Amount', right - 120, tableTop, { width: 120, align: 'right' });
  pdf
    .moveTo(left, tableTop + 16)
    .lineTo(right, tableTop + 16)
    .strokeColor('#e5e7eb')
    .stroke();
  pdf.font('Helvetica').fillColor('#374151');
  pdf.text(invoice.description, left, tableTop + 24, { width: width - 140 });
  const lineBottom = pdf.y;
  pdf.text(money(invoice.amount_due), right - 120, tableTop + 24, { width: 120, align: 'right' });
  if (document.periodStart && document.periodEnd) {
    pdf
      .fillColor('#6b7280')
      .text(
        `Service period ${formatDate(document.periodStart)} – ${formatDate(document.periodEnd)}`,
        left,
        lineBottom + 4,
        { width: width - 140 },
      );
  }

  const totalsTop = pdf.y + 24;
  pdf
    .moveTo(left, totalsTop - 8)
    .lineTo(right, totalsTop - 8)
    .strokeColor('#e5e7eb')
    .stroke();
  const total = (label: string, value: string, y: number, bold = false) => {
    pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica').fillColor('#111827');
    pdf.text(label, right - 260, y, { width: 140, align: 'right' });
    pdf.text(value, right - 120, y, { width: 120, align: 'right' });
  };
  total('Total', money(invoice.amount_due), totalsTop, true);
  total('Amount paid', money(invoice.amount_paid), totalsTop + 18);
  total('Amount due', money(invoice.amount_due - invoice.amount_paid), totalsTop + 36, true);

  pdf.font('Helvetica').fontSize(9).fillColor('#6b7280');
  const footer =
    document.paidAt && document.card
      ? `Paid ${formatDate(document.paidAt)} with ${formatCardBrand(document.card.brand)} ending in ${document.card.last4}.`
      : invoice.status === 'open'
        ? 'Not paid yet: update your card on the Billing tab and it is paid automatically.'
        : '';
  if (footer) pdf.text(footer, left, totalsTop + 80, { width });

  pdf.end();
  return done;
}
