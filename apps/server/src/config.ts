import { z } from 'zod';

/**
 * The only module that reads process.env (DESIGN.md §3). Parsed once at boot; a bad value stops
 * start-up with one line naming the variable.
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

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  // `PORT=` (empty, as env files and CI variables leave it) means unset, not port 0 (a random port).
  PORT: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.coerce.number().int().min(0).max(65535).default(3000),
  ),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  PUBLIC_URL: optionalUrl(/^https?:/),
  DATABASE_URL: optionalUrl(/^postgres(ql)?:/),
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

export interface StripePrices {
  STARTER: { monthly: string | undefined; yearly: string | undefined };
  GROWTH: { monthly: string | undefined; yearly: string | undefined };
}

/**
 * Local test-card billing unless STRIPE_SECRET_KEY is set. Stripe with a missing publishable key or price id
 * still starts, `configured: false`, so the billing tab shows its not-configured notice (SPEC §8).
 */
export type BillingConfig =
  | { provider: 'local'; configured: true }
  | {
      provider: 'stripe';
      configured: boolean;
      secretKey: string;
      publishableKey: string | undefined;
      webhookSecret: string | undefined;
      /** Overrides https://api.stripe.com (contract tests point it at a local server). */
      apiUrl: string | undefined;
      prices: StripePrices;
    };

/** The local phone simulator unless PLIVO_AUTH_ID is set (then PLIVO_AUTH_TOKEN is required too). */
export type SmsConfig = (
  | { provider: 'local' }
  | {
      provider: 'plivo';
      authId: string;
      authToken: string;
      /** Overrides https://api.plivo.com (contract tests point it at a local server). */
      apiUrl: string;
    }
) & {
  /** Messages per second per account, never exceeded by the outbox (SMS_SEND_RATE). */
  sendRate: number;
};

/**
 * Social sign-in (issue 7). A provider is configured when its id is set (Facebook: app id and secret, both
 * or neither); an unconfigured one is `undefined`, and its button says so. The URLs are the providers' own
 * unless a test overrides them.
 */
export interface SocialConfig {
  google: { clientId: string; jwksUrl: string; tokenInfoUrl: string; userInfoUrl: string } | undefined;
  facebook: { appId: string; appSecret: string; graphUrl: string } | undefined;
  apple: { clientId: string; jwksUrl: string } | undefined;
}

/**
 * Who may use the local tools (/dev/mailbox, /dev/phone, the billing clock) of the local providers:
 * `anyone` on a loopback HOST (the person at the machine), `admin` (an admin session) on a public HOST with
 * LOCAL_TOOLS=admin, `closed` on a public HOST without it (main.ts then refuses to start).
 */
export type LocalToolsAccess = 'anyone' | 'admin' | 'closed';

export interface PushConfig {
  /** Both set, or both undefined (then generated and stored in the database). */
  vapidKeys: { publicKey: string; privateKey: string } | undefined;
  subject: string;
  /** Origins of local push services allowed on loopback over http (LOCAL_PUSH_SERVICES); none by default. */
  localServices: string[];
}

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
  publicUrl: string;
  database: { url: string } | { dataDir: string };
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
}

export class ConfigError extends Error {}

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
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    database: env.DATABASE_URL ? { url: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
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
    ...overrides,
  };
}

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

function pushConfig(env: Env, mailFrom: string): PushConfig {
  if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY))
    throw new ConfigError('Invalid configuration: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together');
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom;
  return {
    vapidKeys:
      env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY
        ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY }
        : undefined,
    subject: env.VAPID_SUBJECT ?? `mailto:${address}`,
    localServices: env.LOCAL_PUSH_SERVICES,
  };
}

const withoutTrailingSlash = (url: string) => url.replace(/\/$/, '');

function socialConfig(env: Env): SocialConfig {
  if (env.FACEBOOK_APP_ID && !env.FACEBOOK_APP_SECRET)
    throw new ConfigError(
      'Invalid configuration: FACEBOOK_APP_SECRET is required when FACEBOOK_APP_ID is set',
    );
  if (env.FACEBOOK_APP_SECRET && !env.FACEBOOK_APP_ID)
    throw new ConfigError(
      'Invalid configuration: FACEBOOK_APP_ID is required when FACEBOOK_APP_SECRET is set',
    );
  return {
    google: env.GOOGLE_CLIENT_ID
      ? {
          clientId: env.GOOGLE_CLIENT_ID,
          jwksUrl: env.GOOGLE_JWKS_URL ?? 'https://www.googleapis.com/oauth2/v3/certs',
          tokenInfoUrl: env.GOOGLE_TOKENINFO_URL ?? 'https://oauth2.googleapis.com/tokeninfo',
          userInfoUrl: env.GOOGLE_USERINFO_URL ?? 'https://openidconnect.googleapis.com/v1/userinfo',
        }
      : undefined,
    facebook:
      env.FACEBOOK_APP_ID && env.FACEBOOK_APP_SECRET
        ? {
            appId: env.FACEBOOK_APP_ID,
            appSecret: env.FACEBOOK_APP_SECRET,
            graphUrl: withoutTrailingSlash(env.FACEBOOK_GRAPH_URL ?? 'https://graph.facebook.com/v25.0'),
          }
        : undefined,
    apple: env.APPLE_CLIENT_ID
      ? {
          clientId: env.APPLE_CLIENT_ID,
          jwksUrl: env.APPLE_JWKS_URL ?? 'https://appleid.apple.com/auth/keys',
        }
      : undefined,
  };
}

function smsConfig(env: Env): SmsConfig {
  const sendRate = env.SMS_SEND_RATE;
  if (!env.PLIVO_AUTH_ID && !env.PLIVO_AUTH_TOKEN) return { provider: 'local', sendRate };
  if (!env.PLIVO_AUTH_ID)
    throw new ConfigError('Invalid configuration: PLIVO_AUTH_ID is required when PLIVO_AUTH_TOKEN is set');
  if (!env.PLIVO_AUTH_TOKEN)
    throw new ConfigError('Invalid configuration: PLIVO_AUTH_TOKEN is required when PLIVO_AUTH_ID is set');
  return {
    provider: 'plivo',
    authId: env.PLIVO_AUTH_ID,
    authToken: env.PLIVO_AUTH_TOKEN,
    apiUrl: (env.PLIVO_API_URL ?? 'https://api.plivo.com').replace(/\/$/, ''),
    sendRate,
  };
}

function billingConfig(env: Env): BillingConfig {
  if (!env.STRIPE_SECRET_KEY) return { provider: 'local', configured: true };
  const prices: StripePrices = {
    STARTER: { monthly: env.STRIPE_PRICE_STARTER_MONTHLY, yearly: env.STRIPE_PRICE_STARTER_YEARLY },
    GROWTH: { monthly: env.STRIPE_PRICE_GROWTH_MONTHLY, yearly: env.STRIPE_PRICE_GROWTH_YEARLY },
  };
  const everyPrice = [prices.STARTER, prices.GROWTH].every((plan) => plan.monthly && plan.yearly);
  return {
    provider: 'stripe',
    configured: Boolean(env.STRIPE_PUBLISHABLE_KEY) && everyPrice,
    secretKey: env.STRIPE_SECRET_KEY,
    publishableKey: env.STRIPE_PUBLISHABLE_KEY,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET,
    apiUrl: env.STRIPE_API_URL,
    prices,
  };
}
