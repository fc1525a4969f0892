import type { EmailMessage } from '../../providers/email/index.ts';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The owner's notification that a cancellation alert filled the slot. */
export function openingFilledEmail(
  owner: { email: string; firstName: string },
  filled: { customerName: string; customerPhone: string; service: string; time: string; openingsUrl: string },
): EmailMessage {
  const lines = [
    `Hi ${owner.firstName},`,
    `${filled.customerName} (${filled.customerPhone}) claimed your ${filled.service} opening on ${filled.time}.`,
    'They have been sent a confirmation text. The other customers who replied are told the spot was filled.',
  ];
  const paragraphs = lines.map((line) => `<p style="margin:0 0 16px">${escapeHtml(line)}</p>`).join('');
  return {
    to: owner.email,
    subject: `Filled: ${filled.service} on ${filled.time}`,
    text: [...lines, `See your openings: ${filled.openingsUrl}`].join('\n\n'),
    html: `<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#111827;background:#f9fafb;padding:24px"><div style="max-width:520px;margin:auto;background:#fff;border-radius:12px;padding:32px"><h1 style="font-size:20px;margin:0 0 16px">Your opening was filled</h1>${paragraphs}<p style="margin:24px 0"><a href="${escapeHtml(filled.openingsUrl)}" style="background:#4f46e5;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">See your openings</a></p><p style="color:#6b7280;font-size:13px;margin-top:32px">Waitlist &amp; Text</p></div></body></html>`,
    logSummary: `opening filled by ${filled.customerName}`,
  };
}
