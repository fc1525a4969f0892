import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { redactUrl } from '../lib/logger.ts';

/**
 * Where log lines go: stdout, written in batches of about 4 KB (issue 16: one write per request, handed to
 * libuv's thread pool, cost a thread wake-up and an event-loop round per request under load). A line never
 * waits more than LOG_FLUSH_MS, and what is pending is written when the app closes.
 */
export function logDestination() {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  const flushing = setInterval(() => destination.flush(), LOG_FLUSH_MS).unref();
  return {
    destination,
    /** At app close: no more timer, and what is pending is written now. */
    stop() {
      clearInterval(flushing);
      destination.flush();
    },
    /**
     * Before the process exits: writes what is pending and waits for it, at most `withinMs`. pino flushes
     * the rest synchronously on exit, and sonic-boom retries that write forever on any error but EAGAIN, so a
     * reader that has gone (EPIPE: a log collector that died, a closed pipe) or a pipe nobody drains would
     * keep the process alive for ever (issue 27). A write that fails (pino then stops logging to it) or does
     * not finish in time gives the destination up: its exit-time flush is switched off and the lines are lost.
     */
    settle(withinMs: number): Promise<void> {
      return new Promise((resolve) => {
        const giveUp = () => {
          destination.flushSync = () => {};
          resolve();
        };
        const timer = setTimeout(giveUp, withinMs);
        try {
          destination.flush((error) => {
            clearTimeout(timer);
            // fsync of a pipe fails with EINVAL after the write went through: only a failed write gives up.
            if (error && (error as NodeJS.ErrnoException).code !== 'EINVAL') giveUp();
            else resolve();
          });
        } catch {
          clearTimeout(timer);
          giveUp();
        }
      });
    },
  };
}
const LOG_FLUSH_MS = 250;

/** A request that takes this long is logged at info even when it is a successful read. */
export const SLOW_REQUEST_MS = 1000;

/**
 * One flat access line per request, written through the app's logger with the request id as a field (the
 * line Fastify's request logger would write, without its req/res serializers).
 *
 * Its level says what the line is worth (issue 16): at `info`, every request that changes something (not
 * GET or HEAD), fails (status 400 or more) or is slow (SLOW_REQUEST_MS); at `debug`, the successful quick
 * reads. Reads are most of the traffic (every screen asks GET /auth/me, every page its assets) and are
 * counted and timed by the metrics (http_requests_total, http_request_duration_seconds); writing a line for
 * each cost 8 µs of the 58 µs of CPU that GET /auth/me takes. LOG_LEVEL=debug logs them too.
 */
export function registerAccessLog(app: FastifyInstance) {
  const log = app.log;
  app.addHook('onResponse', (request, reply, done) => {
    const quietRead =
      (request.method === 'GET' || request.method === 'HEAD') &&
      reply.statusCode < 400 &&
      reply.elapsedTime < SLOW_REQUEST_MS;
    log[quietRead ? 'debug' : 'info'](
      {
        reqId: request.id,
        method: request.method,
        // An OAuth callback's code and state, a link's token: never written (issue 38).
        url: redactUrl(request.url),
        remoteAddress: request.ip,
        statusCode: reply.statusCode,
        responseTime: reply.elapsedTime,
      },
      'request completed',
    );
    done();
  });
}
