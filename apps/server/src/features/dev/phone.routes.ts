import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { escapeHtml } from '../../lib/html.ts';
import type { MessagingService, ReceiveInbound } from '../messaging/messaging.service.ts';

const phone = z
  .string()
  .trim()
  .regex(/^\+\d{8,15}$/, 'Use an E.164 number, e.g. +14155550123');
const replyBody = z.object({
  from: phone,
  to: phone,
  text: z.string({ error: 'text is required' }).min(1, 'text is required').max(1600),
});
/** `?number=` once, as a string; a repeated or missing one is not a number. */
const numberQuery = z.object({
  number: z.string({ error: 'Give one number, e.g. ?number=+14155550123' }).optional(),
});
const firstIssue = (error: z.ZodError) => error.issues[0]!.message;

/**
 * The local phone simulator, registered only while the SMS provider is local: `/dev/phone` (a page listing
 * the numbers that received texts, a thread, a reply box) and `/api/v1/dev/phone/{messages,reply}` (JSON,
 * for scripts and end-to-end tests). A reply goes through the same inbound service as Plivo's webhook,
 * after the point where the webhook checks its signature.
 */
export const devPhoneRoutes: FastifyPluginAsync<{
  messagingService: MessagingService;
  /** The conversation's way in for a customer's text (features/conversation), as the webhook's. */
  receiveInbound: ReceiveInbound;
  /** Sends what the reply queued at once (the outbox kick), so the page shows the answer on reload. */
  afterReply?: () => Promise<unknown>;
}> = async (app, { messagingService, receiveInbound, afterReply }) => {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  async function reply(input: z.infer<typeof replyBody>) {
    const result = await receiveInbound({
      from: input.from,
      to: input.to,
      text: input.text,
      providerMessageId: messagingService.localInboundId(),
    });
    await afterReply?.();
    return result;
  }

  app.get('/api/v1/dev/phone/messages', { schema: { hide: true } }, async (request, reply) => {
    const query = numberQuery.safeParse(request.query);
    if (!query.success) return reply.status(400).send({ success: false, message: firstIssue(query.error) });
    const number = query.data.number;
    if (!number) return { success: true, numbers: await messagingService.phonesThatReceivedTexts() };
    const parsed = phone.safeParse(number);
    if (!parsed.success)
      return reply.status(400).send({ success: false, message: parsed.error.issues[0]!.message });
    return { success: true, data: await messagingService.threadOf(parsed.data) };
  });

  app.post('/api/v1/dev/phone/reply', { schema: { hide: true } }, async (request, response) => {
    const parsed = replyBody.safeParse(request.body);
    if (!parsed.success) {
      return response.status(400).send({ success: false, message: parsed.error.issues[0]!.message });
    }
    const result = await reply(parsed.data);
    if (result.outcome === 'unknown_number') {
      return response.status(404).send({ success: false, message: `No business uses ${parsed.data.to}.` });
    }
    return { success: true, data: result };
  });

  app.post('/dev/phone/reply', { schema: { hide: true } }, async (request, response) => {
    const parsed = replyBody.safeParse(request.body);
    if (!parsed.success) {
      return response.status(400).send({ success: false, message: firstIssue(parsed.error) });
    }
    await reply(parsed.data);
    return response.redirect(`/dev/phone?number=${encodeURIComponent(parsed.data.from)}`, 303);
  });

  app.get('/dev/phone', { schema: { hide: true } }, async (request, reply) => {
    const query = numberQuery.safeParse(request.query);
    const selected = query.success ? (query.data.number ?? '') : '';
    const numbers = await messagingService.phonesThatReceivedTexts();
    const thread = phone.safeParse(selected).success ? await messagingService.threadOf(selected) : [];
    const businesses = [
      ...new Set(thread.filter((m) => m.direction === 'out').map((m) => m.fromNumber)),
    ].reverse();
    const list = numbers
      .map(
        ({ number }) =>
          `<li><a href="/dev/phone?number=${encodeURIComponent(number)}"${number === selected ? ' aria-current="page"' : ''}>${escapeHtml(number)}</a></li>`,
      )
      .join('');
    const bubbles = thread
      .map(
        (m) =>
          `<div class="msg ${m.direction}" data-direction="${m.direction}"><p>${escapeHtml(m.body)}</p><small>${m.direction === 'out' ? `from ${escapeHtml(m.fromNumber)} · ${m.status}` : 'you'} · <time datetime="${m.createdAt.toISOString()}">${m.createdAt.toUTCString()}</time></small></div>`,
      )
      .join('\n');
    const form = selected
      ? businesses.length === 0
        ? '<p class="empty">This number has not received a text yet.</p>'
        : `<form method="post" action="/dev/phone/reply">
<input type="hidden" name="from" value="${escapeHtml(selected)}">
<label>To <select name="to">${businesses.map((b) => `<option>${escapeHtml(b)}</option>`).join('')}</select></label>
<label class="grow">Reply <input name="text" required maxlength="1600" autocomplete="off" placeholder="YES, STOP, HELP…" autofocus></label>
<button type="submit">Send</button></form>`
      : '';
    return reply.type('text/html; charset=utf-8').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Dev phone · Waitlist &amp; Text</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;background:#f5f6fa;color:#111827;margin:0;padding:24px}
main{max-width:760px;margin:auto}h1{font-size:22px;margin:0 0 4px}p.lead{color:#4b5563;margin:0 0 16px}
nav ul{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:8px;margin:0 0 16px}
nav a{display:block;padding:6px 12px;border-radius:999px;background:#fff;border:1px solid #e5e7eb;color:#4338ca;text-decoration:none}
nav a[aria-current]{background:#4338ca;color:#fff}
.thread{display:flex;flex-direction:column;gap:8px;background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:16px;margin-bottom:12px}
.msg{max-width:80%;padding:8px 12px;border-radius:14px}.msg p{margin:0;white-space:pre-wrap;word-break:break-word}
.msg small{display:block;font-size:11px;opacity:.7;margin-top:4px}
.msg.out{background:#eef2ff;align-self:flex-start}.msg.in{background:#4338ca;color:#fff;align-self:flex-end}
form{display:flex;gap:8px;flex-wrap:wrap;align-items:end}label{display:flex;flex-direction:column;font-size:13px;gap:4px}
.grow{flex:1;min-width:180px}input,select{font:inherit;padding:8px;border:1px solid #cbd5e1;border-radius:8px}
button{font:inherit;padding:8px 16px;border:0;border-radius:8px;background:#4338ca;color:#fff;cursor:pointer}
.empty{background:#fff;border:1px dashed #cbd5e1;border-radius:12px;padding:24px;text-align:center;color:#4b5563}
</style></head><body><main>
<h1>Dev phone</h1><p class="lead">Texts the local SMS provider sent. Pick a customer's number, read the thread and reply as that customer: the reply goes through the same inbound path as a real one. Exists only while PLIVO_AUTH_ID is not set.</p>
${list ? `<nav aria-label="Numbers"><ul>${list}</ul></nav>` : '<p class="empty">No texts yet. Open a slot or text a customer from the waitlist.</p>'}
${selected ? `<h2>${escapeHtml(selected)}</h2><section class="thread" aria-label="Thread">${bubbles || '<p>No messages.</p>'}</section>` : ''}
${form}
</main></body></html>`);
  });
};
