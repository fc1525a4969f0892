import { escapeHtml } from '../../lib/html.ts';

/**
 * The one HTML layout of every email: a title, the lines as paragraphs (escaped) and an optional button.
 * The plain-text part is the caller's (each email words its link its own way).
 */
export function emailHtml(title: string, lines: string[], action?: { label: string; href: string }): string {
  const paragraphs = lines.map((line) => `<p style="margin:0 0 16px">${escapeHtml(line)}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.href)}" style="background:#4f46e5;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p>`
    : '';
  return `<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#111827;background:#f9fafb;padding:24px"><div style="max-width:520px;margin:auto;background:#fff;border-radius:12px;padding:32px"><h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>${paragraphs}${button}<p style="color:#6b7280;font-size:13px;margin-top:32px">Waitlist &amp; Text</p></div></body></html>`;
}
