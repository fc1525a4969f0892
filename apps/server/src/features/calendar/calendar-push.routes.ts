import { calendarMessages, errorResponse } from '@waitlist/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { addressKey } from '../../lib/address-key.ts';
import { Unauthorized } from '../../lib/errors.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import type { CalendarPush } from './calendar-push.ts';
import { answerValidation } from './microsoft-calendar.ts';

/** Graph batches notifications; a real batch is a few kilobytes. */
const MAX_BODY_BYTES = 256 * 1024;
const validationQuery = z.object({ validationToken: z.string().max(1024).optional() });

/**
 * Where Google and Microsoft say a calendar changed (issue 29). Public (the providers carry no session), so
 * each push is trusted only by the channel's own secret (calendar-push.ts); a push that is not ours answers
 * 401 and counts against the sender's address (`calendarPushIp`), which is refused with 429 once spent. An
 * accepted push makes the calendar due and wakes the worker: the read happens at once, under its lease; a
 * channel's pushes make at most `calendarPushChannel` reads a window, and one for a calendar already due
 * makes none (issue 38: a replayed push read the calendar each time).
 */
export const calendarPushRoutes: FastifyPluginAsyncZod<{
  push: CalendarPush;
  limiter: Pick<RateLimiter, 'check' | 'fail' | 'tryConsume'>;
  /** Wakes the calendar worker (a pass now, not in up to 15 s). */
  kick: () => void;
}> = async (app, { push, limiter, kick }) => {
  // Google posts no body; Graph posts JSON, or an empty text/plain body for its validation handshake.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (_request, body, done) =>
    done(null, body),
  );
  const schema = (summary: string) => ({
    tags: ['calendar'],
    summary,
    // 200 and 202 carry no body, or the handshake's token as text.
    response: { 200: z.string(), 202: z.string(), 401: errorResponse, 429: errorResponse },
  });
  // A verified push reads the calendar at most `calendarPushChannel` times a window (issue 38: replays).
  const allow = (channelId: string) => limiter.tryConsume('calendarPushChannel', channelId);
  async function settle(ip: string, verdict: 'accepted' | 'refused') {
    if (verdict === 'accepted') return kick();
    await limiter.fail('calendarPushIp', addressKey(ip));
    throw new Unauthorized(calendarMessages.pushRefused);
  }

  app.post(
    '/calendar/push/google',
    { bodyLimit: MAX_BODY_BYTES, schema: schema('Google Calendar push (X-Goog-Channel-Token)') },
    async (request, reply) => {
      await limiter.check('calendarPushIp', addressKey(request.ip));
      await settle(request.ip, await push.receiveGoogle(request.headers, allow));
      return reply.status(200).send('');
    },
  );

  app.post(
    '/calendar/push/microsoft',
    {
      bodyLimit: MAX_BODY_BYTES,
      schema: {
        ...schema('Microsoft Graph change and lifecycle notifications (clientState)'),
        querystring: validationQuery,
      },
    },
    async (request, reply) => {
      // Graph's handshake when a subscription is made or renewed: the token echoed as text within 10 s.
      const handshake = answerValidation(request.query);
      if (handshake) return reply.status(200).type(handshake.contentType).send(handshake.body);
      await limiter.check('calendarPushIp', addressKey(request.ip));
      let body: unknown = null;
      try {
        body = JSON.parse(String(request.body ?? ''));
      } catch {
        // Not JSON: not Graph's; refused below.
      }
      await settle(request.ip, await push.receiveMicrosoft(body, allow));
      return reply.status(202).send('');
    },
  );
};
