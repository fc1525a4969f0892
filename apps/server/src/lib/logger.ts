import type { FastifyBaseLogger } from 'fastify';

/** The structured (pino) logger Fastify creates; services receive it instead of importing one. */
export type Logger = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'debug'>;
