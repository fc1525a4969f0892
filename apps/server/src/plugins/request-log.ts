import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type Bindings, type ChildLoggerOptions, pino } from 'pino';

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
  };
}
const LOG_FLUSH_MS = 250;

/**
 * Fastify's childLoggerFactory: `request.log` carries the request id like Fastify's own child logger, but
 * the pino child is made on its first use (issue 16). Most requests log nothing of their own (the access
 * line below goes through the app's logger), and making a child on every request showed in the profile.
 */
export function lazyChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, options);
}

type Log = (...args: unknown[]) => void;

class LazyChildLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  #real(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  get level() {
    return this.#child ? this.#child.level : (this.#options.level ?? this.#parent.level);
  }
  set level(level: string) {
    this.#real().level = level;
  }
  child(bindings: Bindings, options?: ChildLoggerOptions) {
    return this.#real().child(bindings, options);
  }
  fatal(...args: unknown[]) {
    (this.#real().fatal as Log)(...args);
  }
  error(...args: unknown[]) {
    (this.#real().error as Log)(...args);
  }
  warn(...args: unknown[]) {
    (this.#real().warn as Log)(...args);
  }
  info(...args: unknown[]) {
    (this.#real().info as Log)(...args);
  }
  debug(...args: unknown[]) {
    (this.#real().debug as Log)(...args);
  }
  trace(...args: unknown[]) {
    (this.#real().trace as Log)(...args);
  }
  silent(...args: unknown[]) {
    (this.#real().silent as Log)(...args);
  }
}

/** A request that takes this long is logged at info even when it is a successful read. */
export const SLOW_REQUEST_MS = 1000;

/**
 * One flat access line per request, written through the app's logger with the request id as a field (the
 * line Fastify's request logger would write, without its req/res serializers or a child logger).
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
        url: request.url,
        remoteAddress: request.ip,
        statusCode: reply.statusCode,
        responseTime: reply.elapsedTime,
      },
      'request completed',
    );
    done();
  });
}
