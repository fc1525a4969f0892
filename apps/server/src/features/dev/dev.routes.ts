import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.ts';
import { escapeHtml } from '../../lib/html.ts';
import { latestLocalEmails } from '../../providers/email/local.ts';

/**
 * The local mailbox, registered only while the local email provider is active: `/dev/mailbox` (a page)
 * and `/api/v1/dev/mailbox` (JSON, for scripts and end-to-end tests).
 */
export const devMailboxRoutes: FastifyPluginAsync<{ db: Database }> = async (app, { db }) => {
  const latest = () => latestLocalEmails(db);

  app.get('/api/v1/dev/mailbox', { schema: { hide: true } }, async () => ({
    success: true,
    emails: await latest(),
  }));

  app.get('/dev/mailbox', { schema: { hide: true } }, async (_request, reply) => {
    const emails = await latest();
    const items = emails
      .map(
        (email) => `<article>
  <header><h2>${escapeHtml(email.subject)}</h2><p>To <strong>${escapeHtml(email.to)}</strong> · <time datetime="${email.createdAt.toISOString()}">${email.createdAt.toUTCString()}</time></p></header>
  <pre>${escapeHtml(email.text).replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>')}</pre>
</article>`,
      )
      .join('\n');
    return reply.type('text/html; charset=utf-8').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="refresh" content="10"><title>Dev mailbox · Waitlist &amp; Text</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;background:#f5f6fa;color:#111827;margin:0;padding:24px}
main{max-width:760px;margin:auto}h1{font-size:22px;margin:0 0 4px}p.lead{color:#4b5563;margin:0 0 24px}
article{background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:16px 20px;margin-bottom:16px}
h2{font-size:17px;margin:0 0 4px}header p{margin:0 0 12px;color:#4b5563;font-size:14px}
pre{white-space:pre-wrap;word-break:break-word;font:15px/1.5 system-ui,sans-serif;margin:0}a{color:#4338ca}
.empty{background:#fff;border:1px dashed #cbd5e1;border-radius:12px;padding:32px;text-align:center;color:#4b5563}
</style></head><body><main>
<h1>Dev mailbox</h1><p class="lead">Emails the local provider would have sent, newest first. This page refreshes every 10 seconds and exists only while no SMTP_URL is set.</p>
${items || '<p class="empty">No emails yet. Register an account and its verification code appears here.</p>'}
</main></body></html>`);
  });
};
