import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { createManualClock } from '../../lib/clock.ts';
import { type FakeIdentity, startFakeIdentity } from '../../test/fake-identity.ts';
import { appSecretProof } from './facebook.ts';
import {
  createIdentityProviders,
  IdentityProofMissing,
  type IdentityProviders,
  IdentityRejected,
  IdentityUnavailable,
} from './index.ts';

/** The identity providers on their own, against the local identity server: what each call sends and gets. */
let fake: FakeIdentity;
let providers: IdentityProviders;
const clock = createManualClock(new Date('2026-11-23T10:00:00Z'));
beforeAll(async () => {
  fake = await startFakeIdentity();
  providers = createIdentityProviders(loadConfig(fake.env).social, { clock });
});
afterAll(() => fake.close());

const reasonOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(IdentityRejected);
  return (error as IdentityRejected).reason;
};

describe('createIdentityProviders', () => {
  it('creates only the configured providers', () => {
    expect(Object.keys(createIdentityProviders(loadConfig({}).social, { clock }))).toEqual([]);
    const googleOnly = createIdentityProviders(loadConfig({ GOOGLE_CLIENT_ID: 'x' }).social, { clock });
    expect(Object.keys(googleOnly)).toEqual(['google']);
    expect(Object.keys(providers).sort()).toEqual(['apple', 'facebook', 'google']);
  });
});

describe('Google ID tokens', () => {
  it('returns the verified identity, lower-casing the email', async () => {
    const idToken = await fake.googleIdToken(
      { sub: '1001', email: 'Gina@Example.COM', given_name: 'Gina', family_name: 'G' },
      { now: clock.now() },
    );
    expect(await providers.google!.verify({ idToken })).toEqual({
      provider: 'google',
      subject: '1001',
      email: 'gina@example.com',
      emailVerified: true,
      firstName: 'Gina',
      lastName: 'G',
    });
  });

  it('accepts both spellings of Google’s issuer', async () => {
    const idToken = await fake.googleIdToken(
      { iss: 'accounts.google.com', sub: '1002' },
      { now: clock.now() },
    );
    expect((await providers.google!.verify({ idToken })).subject).toBe('1002');
  });

  it('fetches Google’s keys once and keeps them for the next tokens', async () => {
    const fetchesBefore = fake.requests.filter((r) => r.path === '/google/certs').length;
    for (let n = 0; n < 3; n += 1) {
      const idToken = await fake.googleIdToken({ sub: `20${n}` }, { now: clock.now() });
      await providers.google!.verify({ idToken });
    }
    expect(
      fake.requests.filter((r) => r.path === '/google/certs').length - fetchesBefore,
    ).toBeLessThanOrEqual(1);
  });

  it('judges expiry by the injected clock, with a minute of tolerance', async () => {
    const idToken = await fake.googleIdToken({ sub: '1003' }, { now: clock.now(), expiresIn: 600 });
    const later = createManualClock(new Date(clock.now().getTime() + 600_000 + 59_000));
    const atTheEdge = createIdentityProviders(loadConfig(fake.env).social, { clock: later });
    expect((await atTheEdge.google!.verify({ idToken })).subject).toBe('1003');
    later.advance(2_000);
    expect(await reasonOf(atTheEdge.google!.verify({ idToken }))).toBe('the token has expired');
  });

  it('needs an ID token or an access token', async () => {
    await expect(providers.google!.verify({})).rejects.toBeInstanceOf(IdentityProofMissing);
  });
});

describe('Apple identity tokens and the nonce', () => {
  const token = (claims: Record<string, unknown>) =>
    fake.appleIdToken({ sub: 'apple-1', email: 'adam@example.com', ...claims }, { now: clock.now() });

  it('accepts the raw nonce in the token, or its SHA-256 in hex, and nothing else', async () => {
    const raw = await token({ nonce: 'raw' });
    expect((await providers.apple!.verify({ idToken: raw, nonce: 'raw' })).subject).toBe('apple-1');
    const hashed = await token({ nonce: createHash('sha256').update('raw').digest('hex') });
    expect((await providers.apple!.verify({ idToken: hashed, nonce: 'raw' })).email).toBe('adam@example.com');
    const base64 = await token({ nonce: createHash('sha256').update('raw').digest('base64url') });
    expect(await reasonOf(providers.apple!.verify({ idToken: base64, nonce: 'raw' }))).toBe(
      'the token nonce does not match this sign-in',
    );
    expect(await reasonOf(providers.apple!.verify({ idToken: hashed, nonce: 'other' }))).toBe(
      'the token nonce does not match this sign-in',
    );
  });

  it('lets a token without a nonce through only where Apple says nonces are not supported', async () => {
    const unsupported = await token({ nonce_supported: false });
    expect((await providers.apple!.verify({ idToken: unsupported, nonce: 'raw' })).subject).toBe('apple-1');
    expect((await providers.apple!.verify({ idToken: unsupported })).subject).toBe('apple-1');
    expect(await reasonOf(providers.apple!.verify({ idToken: await token({}), nonce: 'raw' }))).toBe(
      'the token carries no nonce',
    );
    expect(await reasonOf(providers.apple!.verify({ idToken: await token({}) }))).toBe(
      'the sign-in nonce is missing',
    );
  });

  it('reads email_verified given as a string or a boolean, and puts no name in the identity', async () => {
    const identity = await providers.apple!.verify({
      idToken: await token({ nonce: 'n', email_verified: true }),
      nonce: 'n',
    });
    expect(identity).toMatchObject({ emailVerified: true, firstName: '', lastName: '' });
    const unverified = await providers.apple!.verify({
      idToken: await token({ nonce: 'n', email_verified: 'false' }),
      nonce: 'n',
    });
    expect(unverified.emailVerified).toBe(false);
  });
});

describe('Facebook', () => {
  it('signs Graph calls with appsecret_proof = hex HMAC-SHA256(token, app secret)', () => {
    // RFC 4231-style check with a well-known HMAC-SHA256 vector.
    expect(appSecretProof('The quick brown fox jumps over the lazy dog', 'key')).toBe(
      'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    );
  });

  it('returns the /me identity for a valid token of our app', async () => {
    const accessToken = fake.facebookToken({
      userId: '777',
      profile: { first_name: 'Faye', last_name: 'Book', email: 'Faye@Example.com' },
    });
    expect(await providers.facebook!.verify({ accessToken })).toEqual({
      provider: 'facebook',
      subject: '777',
      email: 'faye@example.com',
      emailVerified: true,
      firstName: 'Faye',
      lastName: 'Book',
    });
  });

  it('refuses a token whose /me profile is someone else than debug_token said', async () => {
    const accessToken = fake.facebookToken({ userId: '778', profile: { id: '999', email: 'x@example.com' } });
    expect(await reasonOf(providers.facebook!.verify({ accessToken }))).toBe(
      'the token does not match the Facebook profile',
    );
  });

  it('turns an outage into IdentityUnavailable', async () => {
    const accessToken = fake.facebookToken({ userId: '779', profile: {} });
    fake.failNext(1);
    await expect(providers.facebook!.verify({ accessToken })).rejects.toBeInstanceOf(IdentityUnavailable);
  });
});
