import type { FastifyBaseLogger, FastifyRequest } from 'fastify';

/** The structured (pino) logger Fastify creates; services receive it instead of importing one. */
export type Logger = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'debug'>;

/**
 * Query parameters whose values are credentials (issue 38): an OAuth callback's `code` and `state`, and any
 * `…token…` (a reset or unsubscribe link's, an access or refresh token). Their values never reach a log line.
 */
const SECRET_QUERY_NAME = /^(?:code|state|[\w.-]*token[\w.-]*)$/i;
const REDACTED = '[redacted]';

function queryName(raw: string) {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** A request URL as logged: the path as it came, the secret query values replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const pairs = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return pair;
      const name = pair.slice(0, equals);
      return SECRET_QUERY_NAME.test(queryName(name)) ? `${name}=${REDACTED}` : pair;
    });
  return `${url.slice(0, at + 1)}${pairs.join('&')}`;
}

/** Fastify's request serializer with the URL redacted, for any line that logs `{ req }`. */
export const logSerializers = {
  req: (request: FastifyRequest) => ({
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
  }),
};
