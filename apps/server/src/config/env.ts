import { z } from 'zod';

/**
 * The environment's variables, parsed and checked (config.ts reads process.env and hands it here). A bad
 * value stops start-up with one line naming the variable.
 */
const optionalString = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : undefined));

const optionalUrl = (protocols: RegExp) =>
  optionalString.refine((value) => value === undefined || (URL.canParse(value) && protocols.test(value)), {
    message: 'must be a valid URL',
  });

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  // `PORT=` (empty, as env files and CI variables leave it) means unset, not port 0 (a random port).
  PORT: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.coerce.number().int().min(0).max(65535).default(3000),
  ),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  PUBLIC_URL: optionalUrl(/^https?:/),
  DATABASE_URL: optionalUrl(/^postgres(ql)?:/),
  // 'transaction' when DATABASE_URL is a pooler in transaction mode (PgBouncer's pool_mode = transaction):
  // no named prepared statements nor other session state (docs/SCALE.md, issue 40).
  DATABASE_POOLER: z.enum(['transaction']).optional(),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  SMTP_URL: optionalUrl(/^smtps?:/),
  MAIL_FROM: optionalString,
  PLIVO_AUTH_ID: optionalString,
  PLIVO_AUTH_TOKEN: optionalString,
  PLIVO_API_URL: optionalUrl(/^https?:/),
  // Texts per second per account that the outbox hands to the SMS provider (Plivo's default is 5).
  SMS_SEND_RATE: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.coerce.number().positive().max(10_000).default(5),
  ),
  // Issue 39: the plans' limits as the operator sells them (JSON, any plan or field left out keeps the SPEC's
  // value; parsed and checked in config.ts), and what one text segment costs (USD), for the templates' cost.
  PLANS_JSON: optionalString,
  SMS_SEGMENT_PRICE: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.coerce.number().nonnegative().max(10).default(0.0079),
  ),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_PUBLISHABLE_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_URL: optionalUrl(/^https?:/),
  STRIPE_PRICE_STARTER_MONTHLY: optionalString,
  STRIPE_PRICE_STARTER_YEARLY: optionalString,
  STRIPE_PRICE_GROWTH_MONTHLY: optionalString,
  STRIPE_PRICE_GROWTH_YEARLY: optionalString,
  GOOGLE_CLIENT_ID: optionalString,
  FACEBOOK_APP_ID: optionalString,
  FACEBOOK_APP_SECRET: optionalString,
  APPLE_CLIENT_ID: optionalString,
  // Provider endpoints: overridden only by tests, which point them at local servers.
  GOOGLE_JWKS_URL: optionalUrl(/^https?:/),
  GOOGLE_TOKENINFO_URL: optionalUrl(/^https?:/),
  GOOGLE_USERINFO_URL: optionalUrl(/^https?:/),
  APPLE_JWKS_URL: optionalUrl(/^https?:/),
  FACEBOOK_GRAPH_URL: optionalUrl(/^https?:/),
  REDIS_URL: optionalUrl(/^rediss?:/),
  // Web push (issue 14): the VAPID key pair (base64url, as `npx web-push generate-vapid-keys` prints);
  // unset, a pair is generated on first start and kept in the database. The subject is a mailto: or https: URL.
  VAPID_PUBLIC_KEY: optionalString,
  VAPID_PRIVATE_KEY: optionalString,
  VAPID_SUBJECT: optionalUrl(/^(mailto|https):/),
  // Local push services (tests, development) that may be posted to over http on loopback: a comma list of
  // origins such as http://127.0.0.1:3910. Unset: pushes go only to https push services on public addresses.
  LOCAL_PUSH_SERVICES: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .refine((origins) => origins.every(isLocalOrigin), {
      message: 'must be a comma list of http(s) origins on a loopback address, e.g. http://127.0.0.1:3910',
    })
    .transform((origins) => origins.map((origin) => new URL(origin).origin)),
  ADMIN_EMAILS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    )
    .refine((emails) => emails.every((email) => z.email().safeParse(email).success), {
      message: 'must be a comma-separated list of email addresses',
    }),
  // Bearer token for GET /metrics (Prometheus); unset, the endpoint is off.
  METRICS_TOKEN: optionalString.refine((value) => value === undefined || value.length >= 16, {
    message: 'must be at least 16 characters',
  }),
  // How long a shutdown (SIGTERM) may take before it abandons what is left and exits.
  SHUTDOWN_TIMEOUT_SECONDS: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.coerce.number().positive().max(600).default(10),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** 'false': serve the API only (npm run dev serves the web app itself). */
  SERVE_WEB: z.enum(['true', 'false']).default('true'),
  /** Set by `npm start`: how long its checks (install, builds) took before the server's code ran. */
  START_CHECKS_MS: z.coerce.number().nonnegative().optional(),
  // On a HOST other than loopback the local tools (mailbox, phone, billing clock) stay closed and the
  // server refuses to start, unless this opts in to them for admin sessions only (decision 0007).
  LOCAL_TOOLS: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.enum(['admin']).optional(),
  ),
  // Proxies in front of the server whose X-Forwarded-For is believed: a hop count or a comma list of
  // addresses/CIDRs. Unset: the TCP peer is the client (nobody can forge an address for the throttles).
  TRUST_PROXY: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : undefined))
    .refine(
      (value) =>
        value === undefined ||
        /^\d{1,2}$/.test(value) ||
        value.split(',').every((part) => /^[\da-fA-F:.]+(\/\d{1,3})?$/.test(part.trim())),
      { message: 'must be a hop count (e.g. 1) or a comma list of proxy addresses' },
    ),
  // The join page's proof of work (issue 24): the key that signs its challenges (at least 32 characters;
  // unset, one is derived from the stored VAPID private key) and the PBKDF2 rounds per attempt.
  ALTCHA_HMAC_KEY: optionalString.refine((value) => value === undefined || value.length >= 32, {
    message: 'must be at least 32 characters',
  }),
  // Connected calendars (issue 29): the key CalDAV passwords, ICS links and OAuth tokens are sealed with
  // (base64 of 32 bytes; unset, one is derived from the stored VAPID private key: set it in production), and
  // whether calendar addresses may be private (a self-hosted CalDAV server on the LAN; never the default).
  CALENDAR_ENCRYPTION_KEY: optionalString.refine(
    (value) => value === undefined || Buffer.from(value, 'base64').length === 32,
    { message: 'must be 32 bytes in base64 (openssl rand -base64 32)' },
  ),
  CALENDAR_ALLOW_PRIVATE_ADDRESSES: z.enum(['true', 'false']).default('false'),
  // Where Google and Microsoft send their push notifications (issue 29): this server's public HTTPS address,
  // PUBLIC_URL when that is https. Unset and PUBLIC_URL plain http (a laptop), calendars are read every 45 s only.
  CALENDAR_PUSH_URL: optionalString,
  // Google Calendar (issue 29): the OAuth client (a "Web application" client with the redirect URI
  // PUBLIC_URL/api/v1/calendar/oauth/google/callback). Unset, Google is not offered. The *_URL overrides
  // point at another server speaking Google's wire format (tests).
  GOOGLE_CALENDAR_CLIENT_ID: optionalString,
  GOOGLE_CALENDAR_CLIENT_SECRET: optionalString,
  GOOGLE_CALENDAR_API_URL: optionalString,
  GOOGLE_CALENDAR_TOKEN_URL: optionalString,
  GOOGLE_CALENDAR_REVOKE_URL: optionalString,
  // Microsoft 365 / Outlook.com (issue 29): an app registration (Entra ID) with the redirect URI
  // PUBLIC_URL/api/v1/calendar/oauth/microsoft/callback. Unset, Microsoft is not offered. The authority and
  // Graph addresses default to Microsoft's (tests point them at a local server).
  MICROSOFT_CALENDAR_CLIENT_ID: optionalString,
  MICROSOFT_CALENDAR_CLIENT_SECRET: optionalString,
  MICROSOFT_CALENDAR_AUTHORITY: optionalString,
  MICROSOFT_CALENDAR_GRAPH_URL: optionalString,
  ALTCHA_COST: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.coerce.number().int().min(1).max(1_000_000).default(1000),
  ),
  // Accounts one address may create per hour (POST /auth/register and social sign-up).
  SIGNUP_LIMIT_PER_HOUR: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.coerce.number().int().min(1).max(1_000_000).default(10),
  ),
});

export type Env = z.infer<typeof envSchema>;

/** 127.0.0.0/8, ::1 and localhost answer only this machine; 0.0.0.0, :: and any other address do not. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/** An origin (no path, query or credentials) on a loopback host: what LOCAL_PUSH_SERVICES may name. */
function isLocalOrigin(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    /^https?:$/.test(url.protocol) &&
    !url.username &&
    !url.password &&
    url.pathname === '/' &&
    !url.search &&
    !url.hash &&
    isLoopbackHost(url.hostname)
  );
}
