import { DEFAULT_PLAN_CATALOGUE, type PlanCatalogue, parsePlanCatalogue } from '@waitlist/contract';
import { type Env, envSchema, isLoopbackHost } from './config/env.ts';
import {
  type BillingConfig,
  billingConfig,
  ConfigError,
  type PushConfig,
  pushConfig,
  type SmsConfig,
  type SocialConfig,
  smsConfig,
  socialConfig,
} from './config/providers.ts';

/**
 * The only module that reads process.env (DESIGN.md §3). Parsed once at boot; a bad value stops
 * start-up with one line naming the variable. The variables' schema is config/env.ts; each provider's
 * config is derived in config/providers.ts.
 */

export type { Env } from './config/env.ts';
export { isLoopbackHost } from './config/env.ts';
export type { BillingConfig, PushConfig, SmsConfig, SocialConfig, StripePrices } from './config/providers.ts';
export { ConfigError };

/**
 * Who may use the local tools (/dev/mailbox, /dev/phone, the billing clock) of the local providers:
 * `anyone` on a loopback HOST (the person at the machine), `admin` (an admin session) on a public HOST with
 * LOCAL_TOOLS=admin, `closed` on a public HOST without it (main.ts then refuses to start).
 */
export type LocalToolsAccess = 'anyone' | 'admin' | 'closed';

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  localTools: LocalToolsAccess;
  /** Fastify's trustProxy: false, a hop count, or the proxies' addresses. */
  trustProxy: false | number | string[];
  signupLimitPerHour: number;
  /** The join page's proof of work: its signing key (undefined: derived from a stored secret), its cost. */
  altcha: { hmacKey: string | undefined; cost: number };
  /** Connected calendars: the sealing key (undefined: derived from a stored secret), private addresses allowed. */
  calendar: {
    encryptionKey: Buffer | undefined;
    allowPrivateAddresses: boolean;
    /** Where Google and Microsoft push changes (this server's public HTTPS address); undefined: polling only. */
    pushUrl: string | undefined;
    /** Google Calendar's OAuth client, when configured (its endpoints overridden in tests). */
    google:
      | { clientId: string; clientSecret: string; endpoints?: { api: string; token: string; revoke: string } }
      | undefined;
    /** Microsoft's app registration, when configured (authority and Graph overridden in tests). */
    microsoft: { clientId: string; clientSecret: string; authority?: string; graph?: string } | undefined;
  };
  publicUrl: string;
  /** pooler: DATABASE_POOLER (db/client.ts, issue 40). */
  database: { url: string; pooler?: 'transaction' } | { dataDir: string };
  email: { provider: 'smtp'; url: string; from: string } | { provider: 'local'; from: string };
  redisUrl: string | undefined;
  adminEmails: string[];
  social: SocialConfig;
  billing: BillingConfig;
  sms: SmsConfig;
  push: PushConfig;
  logLevel: Env['LOG_LEVEL'];
  /** Bearer token that opens GET /metrics; undefined: no metrics endpoint. */
  metricsToken: string | undefined;
  /** Shutdown deadline in milliseconds (SHUTDOWN_TIMEOUT_SECONDS). */
  shutdownTimeoutMs: number;
  /** Where the built web app lives; undefined serves the API only (tests, `npm run dev`). */
  webDistDir: string | undefined;
  /** SERVE_WEB: main.ts serves the built web app unless this is false. */
  serveWeb: boolean;
  /** START_CHECKS_MS: `npm start`'s checks before this process, logged with the start-up phases. */
  startChecksMs: number | undefined;
  /** PLANS_JSON over the SPEC's plans: names, waitlist size, alerts a day, texts included (issue 39). */
  plans: PlanCatalogue;
  /** SMS_SEGMENT_PRICE: what one text segment costs, shown beside each template's segments (issue 39). */
  smsSegmentPrice: { amount: number; currency: 'USD' };
}

/** PLANS_JSON parsed over the defaults; a bad value stops start-up with one line naming it. */
function plansOf(json: string | undefined): PlanCatalogue {
  if (!json) return DEFAULT_PLAN_CATALOGUE;
  const parsed = parsePlanCatalogue(json);
  if ('problem' in parsed) throw new ConfigError(`Invalid configuration: PLANS_JSON ${parsed.problem}`);
  return parsed.catalogue;
}

/** CALENDAR_PUSH_URL, else PUBLIC_URL when it is https (Google and Microsoft push to HTTPS only). */
function pushUrlOf(pushUrl: string | undefined, publicUrl: string | undefined) {
  const url = pushUrl ?? (publicUrl?.startsWith('https://') ? publicUrl : undefined);
  return url?.replace(/\/$/, '');
}

export function loadConfig(
  source: Record<string, string | undefined> = process.env,
  overrides: Partial<Config> = {},
): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = issue.path.join('.');
    // A mistyped connection string still carries its password: keep that out of the log.
    const got = source[variable]?.replace(/\/\/[^/@\s]*@/, '//***@');
    throw new ConfigError(`Invalid configuration: ${variable} ${issue.message} (got ${JSON.stringify(got)})`);
  }
  const env = parsed.data;
  const mailFrom = env.MAIL_FROM ?? 'Waitlist & Text <no-reply@waitlist.local>';
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    localTools: isLoopbackHost(env.HOST) ? 'anyone' : env.LOCAL_TOOLS === 'admin' ? 'admin' : 'closed',
    trustProxy: !env.TRUST_PROXY
      ? false
      : /^\d+$/.test(env.TRUST_PROXY)
        ? Number(env.TRUST_PROXY)
        : env.TRUST_PROXY.split(',').map((part) => part.trim()),
    signupLimitPerHour: env.SIGNUP_LIMIT_PER_HOUR,
    altcha: { hmacKey: env.ALTCHA_HMAC_KEY, cost: env.ALTCHA_COST },
    calendar: {
      encryptionKey: env.CALENDAR_ENCRYPTION_KEY
        ? Buffer.from(env.CALENDAR_ENCRYPTION_KEY, 'base64')
        : undefined,
      allowPrivateAddresses: env.CALENDAR_ALLOW_PRIVATE_ADDRESSES === 'true',
      pushUrl: pushUrlOf(env.CALENDAR_PUSH_URL, env.PUBLIC_URL),
      google:
        env.GOOGLE_CALENDAR_CLIENT_ID && env.GOOGLE_CALENDAR_CLIENT_SECRET
          ? {
              clientId: env.GOOGLE_CALENDAR_CLIENT_ID,
              clientSecret: env.GOOGLE_CALENDAR_CLIENT_SECRET,
              ...(env.GOOGLE_CALENDAR_API_URL &&
              env.GOOGLE_CALENDAR_TOKEN_URL &&
              env.GOOGLE_CALENDAR_REVOKE_URL
                ? {
                    endpoints: {
                      api: env.GOOGLE_CALENDAR_API_URL,
                      token: env.GOOGLE_CALENDAR_TOKEN_URL,
                      revoke: env.GOOGLE_CALENDAR_REVOKE_URL,
                    },
                  }
                : {}),
            }
          : undefined,
      microsoft:
        env.MICROSOFT_CALENDAR_CLIENT_ID && env.MICROSOFT_CALENDAR_CLIENT_SECRET
          ? {
              clientId: env.MICROSOFT_CALENDAR_CLIENT_ID,
              clientSecret: env.MICROSOFT_CALENDAR_CLIENT_SECRET,
              ...(env.MICROSOFT_CALENDAR_AUTHORITY ? { authority: env.MICROSOFT_CALENDAR_AUTHORITY } : {}),
              ...(env.MICROSOFT_CALENDAR_GRAPH_URL ? { graph: env.MICROSOFT_CALENDAR_GRAPH_URL } : {}),
            }
          : undefined,
    },
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    database: env.DATABASE_URL
      ? { url: env.DATABASE_URL, ...(env.DATABASE_POOLER ? { pooler: env.DATABASE_POOLER } : {}) }
      : { dataDir: env.DATA_DIR },
    email: env.SMTP_URL
      ? { provider: 'smtp', url: env.SMTP_URL, from: mailFrom }
      : { provider: 'local', from: mailFrom },
    redisUrl: env.REDIS_URL,
    adminEmails: env.ADMIN_EMAILS,
    social: socialConfig(env),
    billing: billingConfig(env),
    sms: smsConfig(env),
    push: pushConfig(env, mailFrom),
    logLevel: env.LOG_LEVEL,
    metricsToken: env.METRICS_TOKEN,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    webDistDir: undefined,
    serveWeb: env.SERVE_WEB === 'true',
    startChecksMs: env.START_CHECKS_MS,
    plans: plansOf(env.PLANS_JSON),
    smsSegmentPrice: { amount: env.SMS_SEGMENT_PRICE, currency: 'USD' },
    ...overrides,
  };
}

/** The local providers in use, each with the variable that replaces it. */
export function localProviders(config: Pick<Config, 'email' | 'sms' | 'billing'>) {
  return [
    ...(config.email.provider === 'local' ? [{ tool: 'the local mailbox', set: 'SMTP_URL' }] : []),
    ...(config.sms.provider === 'local'
      ? [{ tool: 'the local phone', set: 'PLIVO_AUTH_ID and PLIVO_AUTH_TOKEN' }]
      : []),
    ...(config.billing.provider === 'local'
      ? [{ tool: 'the local billing clock', set: 'STRIPE_SECRET_KEY' }]
      : []),
  ];
}

/**
 * Why the server must not start, or undefined: on a public HOST a local provider would hand its tools
 * (read any mail, reply as any customer, move the billing clock) to whoever reaches the address.
 */
export function publicHostProblem(config: Config): string | undefined {
  const local = localProviders(config);
  if (config.localTools !== 'closed' || local.length === 0) return undefined;
  return `Refusing to start: HOST ${config.host} is not loopback and ${local.map((p) => p.tool).join(', ')} would be reachable from it; set ${local.map((p) => p.set).join(', ')} (or LOCAL_TOOLS=admin to open the local tools to admin sessions only)`;
}
