import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { serverProcessArgs } from './test/instance.ts';

const serverDir = fileURLToPath(new URL('..', import.meta.url));

/** The message loadConfig throws for `env`, checked to be a ConfigError of one line naming `variable`. */
function configErrorFor(env: Record<string, string>, variable: string): string {
  let thrown: unknown;
  try {
    loadConfig(env);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ConfigError);
  const message = (thrown as ConfigError).message;
  expect(message).not.toContain('\n');
  expect(message.startsWith(`Invalid configuration: ${variable} `)).toBe(true);
  return message;
}

describe('loadConfig', () => {
  it('runs on the embedded defaults when nothing is set', () => {
    expect(loadConfig({})).toMatchObject({
      env: 'development',
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      database: { dataDir: './data' },
      email: { provider: 'local' },
      redisUrl: undefined,
      adminEmails: [],
      logLevel: 'info',
    });
  });

  it('reads each setting, treating empty values as unset', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      PORT: '8080',
      HOST: '0.0.0.0',
      PUBLIC_URL: 'https://waitlist.example.com/',
      DATABASE_URL: 'postgres://app:pw@db:5432/waitlist',
      SMTP_URL: 'smtps://user:pass@smtp.example.com:465',
      MAIL_FROM: 'Bella <hello@example.com>',
      REDIS_URL: 'redis://cache:6379',
      ADMIN_EMAILS: ' Boss@Example.com , second@example.com,',
      GOOGLE_CLIENT_ID: '',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      env: 'production',
      port: 8080,
      host: '0.0.0.0',
      publicUrl: 'https://waitlist.example.com',
      database: { url: 'postgres://app:pw@db:5432/waitlist' },
      email: {
        provider: 'smtp',
        url: 'smtps://user:pass@smtp.example.com:465',
        from: 'Bella <hello@example.com>',
      },
      redisUrl: 'redis://cache:6379',
      adminEmails: ['boss@example.com', 'second@example.com'],
      social: { google: undefined, facebook: undefined, apple: undefined },
      logLevel: 'warn',
    });
    expect(loadConfig({ PORT: '4000' }).publicUrl).toBe('http://localhost:4000');
    expect(loadConfig({ PORT: '' }).port).toBe(3000);
    expect(loadConfig({ SMTP_URL: '', DATABASE_URL: ' ' })).toMatchObject({
      email: { provider: 'local' },
      database: { dataDir: './data' },
    });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '3.5'],
    ['HOST', '   '],
    ['NODE_ENV', 'staging'],
    ['LOG_LEVEL', 'loud'],
    ['PUBLIC_URL', 'localhost:3000'],
    ['PUBLIC_URL', 'ftp://example.com'],
    ['DATABASE_URL', 'mysql://localhost/waitlist'],
    ['DATABASE_URL', 'not a url'],
    ['SMTP_URL', 'garbage'],
    ['SMTP_URL', 'http://mail.example.com'],
    ['REDIS_URL', 'localhost:6379'],
    ['PLIVO_API_URL', 'api.plivo.com'],
    ['STRIPE_API_URL', 'stripe'],
    ['GOOGLE_JWKS_URL', 'nope'],
    ['GOOGLE_TOKENINFO_URL', 'oauth2.googleapis.com/tokeninfo'],
    ['GOOGLE_USERINFO_URL', 'file:///etc/passwd'],
    ['APPLE_JWKS_URL', 'appleid.apple.com/auth/keys'],
    ['FACEBOOK_GRAPH_URL', 'graph'],
    ['ADMIN_EMAILS', 'boss@example.com, not-an-email'],
  ])('refuses %s=%j with a ConfigError of one line naming the variable and the value', (variable, value) => {
    const message = configErrorFor({ [variable]: value }, variable);
    expect(message).toContain(`(got ${JSON.stringify(value)})`);
  });

  it('configures social sign-in per provider, with the providers’ own endpoints by default', () => {
    expect(loadConfig({}).social).toEqual({ google: undefined, facebook: undefined, apple: undefined });
    expect(
      loadConfig({
        GOOGLE_CLIENT_ID: 'client.apps.googleusercontent.com',
        FACEBOOK_APP_ID: '1234',
        FACEBOOK_APP_SECRET: 'shh',
        APPLE_CLIENT_ID: 'com.example.web',
      }).social,
    ).toEqual({
      google: {
        clientId: 'client.apps.googleusercontent.com',
        jwksUrl: 'https://www.googleapis.com/oauth2/v3/certs',
        tokenInfoUrl: 'https://oauth2.googleapis.com/tokeninfo',
        userInfoUrl: 'https://openidconnect.googleapis.com/v1/userinfo',
      },
      facebook: { appId: '1234', appSecret: 'shh', graphUrl: 'https://graph.facebook.com/v25.0' },
      apple: { clientId: 'com.example.web', jwksUrl: 'https://appleid.apple.com/auth/keys' },
    });
  });

  it('points the providers at other endpoints when told (tests), and ignores them for unconfigured ones', () => {
    const social = loadConfig({
      GOOGLE_CLIENT_ID: 'client',
      GOOGLE_JWKS_URL: 'http://127.0.0.1:9000/google/certs',
      GOOGLE_TOKENINFO_URL: 'http://127.0.0.1:9000/google/tokeninfo',
      GOOGLE_USERINFO_URL: 'http://127.0.0.1:9000/google/userinfo',
      FACEBOOK_APP_ID: '1234',
      FACEBOOK_APP_SECRET: 'shh',
      FACEBOOK_GRAPH_URL: 'http://127.0.0.1:9000/facebook/',
      APPLE_JWKS_URL: 'http://127.0.0.1:9000/apple/keys',
    }).social;
    expect(social.google).toEqual({
      clientId: 'client',
      jwksUrl: 'http://127.0.0.1:9000/google/certs',
      tokenInfoUrl: 'http://127.0.0.1:9000/google/tokeninfo',
      userInfoUrl: 'http://127.0.0.1:9000/google/userinfo',
    });
    expect(social.facebook?.graphUrl).toBe('http://127.0.0.1:9000/facebook');
    expect(social.apple).toBeUndefined();
  });

  it('needs the Facebook app id and secret together, and names the missing one', () => {
    expect(configErrorFor({ FACEBOOK_APP_ID: '1234' }, 'FACEBOOK_APP_SECRET')).toBe(
      'Invalid configuration: FACEBOOK_APP_SECRET is required when FACEBOOK_APP_ID is set',
    );
    expect(configErrorFor({ FACEBOOK_APP_SECRET: 'shh', FACEBOOK_APP_ID: ' ' }, 'FACEBOOK_APP_ID')).toBe(
      'Invalid configuration: FACEBOOK_APP_ID is required when FACEBOOK_APP_SECRET is set',
    );
  });

  it('sends calendar pushes to CALENDAR_PUSH_URL, else to an https PUBLIC_URL, else nowhere (polling)', () => {
    expect(loadConfig({}).calendar.pushUrl).toBeUndefined();
    expect(loadConfig({ PUBLIC_URL: 'http://192.168.1.5:3000' }).calendar.pushUrl).toBeUndefined();
    expect(loadConfig({ PUBLIC_URL: 'https://app.example.com/' }).calendar.pushUrl).toBe(
      'https://app.example.com',
    );
    expect(
      loadConfig({ PUBLIC_URL: 'http://localhost:3000', CALENDAR_PUSH_URL: 'https://hooks.example.com' })
        .calendar.pushUrl,
    ).toBe('https://hooks.example.com');
  });

  it('names the bad variable even when others are fine', () => {
    configErrorFor({ PORT: '3000', SMTP_URL: 'smtp//broken', DATABASE_URL: 'postgres://db/x' }, 'SMTP_URL');
  });

  it('does not repeat a password from a mistyped connection string', () => {
    const message = configErrorFor({ DATABASE_URL: 'postgress://admin:hunter2@db:5432/app' }, 'DATABASE_URL');
    expect(message).not.toContain('hunter2');
    expect(message).toContain('(got "postgress://***@db:5432/app")');
    expect(configErrorFor({ SMTP_URL: 'smpt://mailer:s3cret@smtp.example.com' }, 'SMTP_URL')).not.toContain(
      's3cret',
    );
  });
});

describe('start-up with bad configuration', () => {
  it('exits non-zero with one line on stderr naming the variable', async () => {
    const child = spawn(process.execPath, await serverProcessArgs(), {
      cwd: serverDir,
      env: { ...process.env, PORT: 'abc', DATABASE_URL: '', DATA_DIR: 'memory://', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    const lines = stderr.trim().split('\n');
    expect(lines).toEqual([expect.stringMatching(/^Invalid configuration: PORT .*\(got "abc"\)$/)]);
    expect(stdout).toBe('');
  });
});
