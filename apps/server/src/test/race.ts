import { Readable } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

/**
 * The race harness of issue 24: a sensitive request sent the two ways an attacker times it.
 *
 * - `burst`: many copies at once, so a limit that checks before it counts (or reads a row before another
 *   request writes it) lets more through than a sequence would.
 * - `lateBody`: the headers first, the body only after something else happened. The server has loaded the
 *   session (its onRequest hooks ran) and is waiting for the body when `meanwhile` runs, so a route that
 *   decides from the session's copy of the user instead of the row it locks sees stale data.
 *
 * Both go through `app.inject`, so they run the same on PGlite and PostgreSQL.
 */

type Request = InjectOptions & { method: NonNullable<InjectOptions['method']>; url: string };

/** Sends `count` requests at once (`request(index)` builds each) and answers them in the same order. */
export function burst(
  app: FastifyInstance,
  count: number,
  request: (index: number) => Request,
): Promise<LightMyRequestResponse[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => app.inject(request(index))));
}

/** How many answers of a burst had each status code, e.g. `{ 401: 10, 429: 140 }`. */
export function statusCounts(responses: LightMyRequestResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { statusCode } of responses) counts[statusCode] = (counts[statusCode] ?? 0) + 1;
  return counts;
}

/**
 * Sends `request` (a JSON body) with its body held back until `meanwhile` has finished. `meanwhile` starts
 * once the server reads the body, that is after every onRequest hook ran; if the server answers without
 * reading it (a 401 from a hook), `meanwhile` is not run and that answer is returned. The body may be a
 * function of what `meanwhile` returned (a code it read from the mailbox, say): it is sent without a
 * length, as a chunked body is.
 */
export async function lateBody<T>(
  app: FastifyInstance,
  request: Request & { payload: object | string | ((during: T) => object | string) },
  meanwhile: () => Promise<T>,
): Promise<LightMyRequestResponse> {
  const { payload } = request;
  const encode = (value: object | string) => (typeof value === 'string' ? value : JSON.stringify(value));
  const length = typeof payload === 'function' ? undefined : String(Buffer.byteLength(encode(payload)));
  let during: T | undefined;
  let startReading!: () => void;
  const reading = new Promise<'reading'>((resolve) => {
    startReading = () => resolve('reading');
  });
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started = false;
  const stream = new Readable({
    read() {
      if (started) return;
      started = true;
      startReading();
      void released.then(() => {
        this.push(encode(typeof payload === 'function' ? payload(during as T) : payload));
        this.push(null);
      });
    },
  });
  const answer = app.inject({
    ...request,
    headers: {
      'content-type': 'application/json',
      ...(length ? { 'content-length': length } : { 'transfer-encoding': 'chunked' }),
      ...request.headers,
    },
    payload: stream,
  });
  const first = await Promise.race([reading, answer]);
  if (first !== 'reading') return first;
  try {
    during = await meanwhile();
  } finally {
    release();
  }
  return answer;
}
