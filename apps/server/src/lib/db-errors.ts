/** True for PostgreSQL's unique_violation (23505), whether node-postgres, PGlite or Drizzle's wrapper threw it. */
export function isUniqueViolation(error: unknown): boolean {
  for (
    let current = error;
    current && typeof current === 'object';
    current = (current as { cause?: unknown }).cause
  ) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** Connection-level failures: the database is down or restarting, not a bad query. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '08000',
  '08001',
  '08003',
  '08006',
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|terminating connection/i;

/** True when the database could not be reached (the request changed nothing and may be retried). */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (
    let current = error;
    current && typeof current === 'object';
    current = (current as { cause?: unknown }).cause
  ) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    const message = (current as { message?: unknown }).message;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  }
  return false;
}

/**
 * An error as the log may keep it: a failed query keeps its SQL but never its bound values (Drizzle puts
 * them in the message as "params: …"), and the database's own message loses quoted values and its detail
 * line ("Key (email)=(…) already exists"). Anything else is returned unchanged.
 */
export function withoutQueryValues(error: unknown): unknown {
  if (!error || typeof error !== 'object') return error;
  const failed = findFailedQuery(error);
  if (!failed) return error;
  const cause = (failed as { cause?: { code?: unknown; message?: unknown; routine?: unknown } }).cause;
  return {
    type: (error as Error).name ?? 'Error',
    message: `Failed query: ${failed.query}`,
    stack: (error as Error).stack
      ?.split('\n')
      .filter((line) => line.startsWith('    at '))
      .join('\n'),
    cause: cause && {
      code: cause.code,
      routine: cause.routine,
      message: typeof cause.message === 'string' ? cause.message.replace(/"[^"]*"/g, '"…"') : undefined,
    },
  };
}

function findFailedQuery(error: unknown): { query: string; cause?: unknown } | undefined {
  for (
    let current = error;
    current && typeof current === 'object';
    current = (current as { cause?: unknown }).cause
  ) {
    const query = (current as { query?: unknown }).query;
    if (typeof query === 'string' && 'params' in current) return current as unknown as { query: string };
  }
  return undefined;
}
