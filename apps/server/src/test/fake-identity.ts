import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';

/**
 * One local HTTP server that speaks, at the wire, the parts of Google, Apple and Facebook the identity
 * providers call, with keys generated here:
 * - `/google/certs` and `/apple/keys`: JSON Web Key Sets (RS256 public keys with a kid);
 * - `/google/tokeninfo?access_token=` and `/google/userinfo` (bearer): Google's OAuth access-token endpoints;
 * - `/facebook/debug_token` and `/facebook/me`: the Graph API calls, checking the app access token and
 *   appsecret_proof the way Facebook does.
 * Every request is recorded; `failNext(n)` answers the next n with 500, like an outage.
 */

export interface RecordedIdentityRequest {
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  status: number;
}

export interface GoogleAccessToken {
  /** The client id the token was issued to (aud and azp). */
  clientId: string;
  sub: string;
  email?: string;
  emailVerified?: boolean;
  givenName?: string;
  familyName?: string;
  expiresIn?: number;
}

export interface FacebookToken {
  appId: string;
  userId: string;
  isValid?: boolean;
  /** What /me answers; `email` left out when the user did not share it. */
  profile: { id?: string; first_name?: string; last_name?: string; email?: string };
}

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export interface SignOptions {
  /** The time the token is issued at (the test clock's now). */
  now: Date;
  /** Seconds until expiry; negative makes an expired token. Default one hour. */
  expiresIn?: number;
  /** Sign with a key that is not published (same kid: a bad signature; `kid` overrides it). */
  rogue?: boolean;
  kid?: string;
}

export interface FakeIdentity {
  url: string;
  googleClientId: string;
  appleClientId: string;
  facebookAppId: string;
  facebookAppSecret: string;
  /** The environment that points every provider at this server, with the client ids above. */
  env: Record<string, string>;
  requests: RecordedIdentityRequest[];
  googleAccessTokens: Map<string, GoogleAccessToken>;
  facebookTokens: Map<string, FacebookToken>;
  /** A Google ID token: defaults are a valid, verified identity for our client id; `claims` override them. */
  googleIdToken(claims: JWTPayload & Record<string, unknown>, options: SignOptions): Promise<string>;
  /** An Apple identity token: defaults are valid for our Services ID; `claims` override them. */
  appleIdToken(claims: JWTPayload & Record<string, unknown>, options: SignOptions): Promise<string>;
  /** Registers a Facebook user access token and returns it. */
  facebookToken(token: Omit<FacebookToken, 'appId'> & { appId?: string }): string;
  /** Registers a Google OAuth access token and returns it. */
  googleAccessToken(token: Omit<GoogleAccessToken, 'clientId'> & { clientId?: string }): string;
  failNext(count: number): void;
  close(): Promise<void>;
}

async function newSigningKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  return { kid, privateKey, publicJwk };
}

const randomToken = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;

const GOOGLE_CLIENT_ID = '1234567890-test.apps.googleusercontent.com';
const APPLE_CLIENT_ID = 'com.example.waitlist.web';
const FACEBOOK_APP_ID = '987654321012345';
const FACEBOOK_APP_SECRET = 'fb-app-secret-for-tests';

type Reply = { status: number; body: unknown };
const reply = (status: number, body: unknown): Reply => ({ status, body });

/** Google's OAuth access-token endpoints: tokeninfo (by query) and userinfo (bearer). */
function googleReply(
  tokens: Map<string, GoogleAccessToken>,
  path: string,
  query: URLSearchParams,
  headers: IncomingHttpHeaders,
): Reply | undefined {
  if (path === '/google/tokeninfo') {
    const token = tokens.get(query.get('access_token') ?? '');
    if (!token || (token.expiresIn ?? 3600) <= 0)
      return reply(400, { error: 'invalid_token', error_description: 'Invalid Value' });
    return reply(200, {
      azp: token.clientId,
      aud: token.clientId,
      sub: token.sub,
      scope:
        'openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile',
      exp: String(Math.floor(Date.now() / 1000) + (token.expiresIn ?? 3600)),
      expires_in: String(token.expiresIn ?? 3600),
      ...(token.email ? { email: token.email, email_verified: String(token.emailVerified ?? true) } : {}),
      access_type: 'online',
    });
  }
  if (path === '/google/userinfo') {
    const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1] ?? '';
    const token = tokens.get(bearer);
    if (!token || (token.expiresIn ?? 3600) <= 0)
      return reply(401, { error: 'invalid_request', error_description: 'Invalid Credentials' });
    return reply(200, {
      sub: token.sub,
      name: `${token.givenName ?? ''} ${token.familyName ?? ''}`.trim(),
      given_name: token.givenName,
      family_name: token.familyName,
      ...(token.email ? { email: token.email, email_verified: token.emailVerified ?? true } : {}),
    });
  }
  return undefined;
}

/** The Graph API calls, checking the app access token and appsecret_proof the way Facebook does. */
function facebookReply(
  tokens: Map<string, FacebookToken>,
  path: string,
  query: URLSearchParams,
): Reply | undefined {
  if (path === '/facebook/debug_token') {
    if (query.get('access_token') !== `${FACEBOOK_APP_ID}|${FACEBOOK_APP_SECRET}`)
      return reply(400, {
        error: { message: 'Invalid OAuth access token signature.', type: 'OAuthException', code: 190 },
      });
    const token = tokens.get(query.get('input_token') ?? '');
    if (!token)
      return reply(200, {
        data: { error: { code: 190, message: 'Invalid OAuth access token.' }, is_valid: false, scopes: [] },
      });
    return reply(200, {
      data: {
        app_id: token.appId,
        type: 'USER',
        application: 'Waitlist & Text',
        expires_at: Math.floor(Date.now() / 1000) + 3600,
        is_valid: token.isValid ?? true,
        scopes: ['email', 'public_profile'],
        user_id: token.userId,
      },
    });
  }
  if (path === '/facebook/me') {
    const accessToken = query.get('access_token') ?? '';
    const token = tokens.get(accessToken);
    if (!token || token.isValid === false)
      return reply(400, {
        error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 },
      });
    const expectedProof = createHmac('sha256', FACEBOOK_APP_SECRET).update(accessToken).digest('hex');
    if (query.get('appsecret_proof') !== expectedProof)
      return reply(400, {
        error: {
          message: 'Invalid appsecret_proof provided in the API argument',
          type: 'GraphMethodException',
          code: 100,
        },
      });
    const fields = (query.get('fields') ?? 'id,name').split(',');
    const profile: Record<string, unknown> = { id: token.userId, ...token.profile };
    return reply(200, Object.fromEntries(fields.filter((f) => f in profile).map((f) => [f, profile[f]])));
  }
  return undefined;
}

interface IdentityState {
  googleKeys: SigningKey[];
  appleKeys: SigningKey[];
  rogueKey: SigningKey;
  googleAccessTokens: Map<string, GoogleAccessToken>;
  facebookTokens: Map<string, FacebookToken>;
  requests: RecordedIdentityRequest[];
  /** How many of the next requests answer 500. */
  failures: number;
}

function route(
  state: IdentityState,
  path: string,
  query: URLSearchParams,
  headers: IncomingHttpHeaders,
): Reply {
  if (state.failures > 0) {
    state.failures -= 1;
    return reply(500, { error: 'backend error' });
  }
  if (path === '/google/certs') return reply(200, { keys: state.googleKeys.map((key) => key.publicJwk) });
  if (path === '/apple/keys') return reply(200, { keys: state.appleKeys.map((key) => key.publicJwk) });
  return (
    googleReply(state.googleAccessTokens, path, query, headers) ??
    facebookReply(state.facebookTokens, path, query) ??
    reply(404, { error: 'not found' })
  );
}

function createIdentityServer(state: IdentityState) {
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
    return status;
  };
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    req.resume();
    req.on('end', () => {
      let status: number;
      try {
        const answer = route(state, url.pathname, url.searchParams, req.headers);
        status = send(res, answer.status, answer.body);
      } catch {
        status = send(res, 500, { error: 'fake failed' });
      }
      state.requests.push({
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        status,
      });
    });
  });
}

async function sign(
  keys: SigningKey[],
  rogueKey: SigningKey,
  defaults: JWTPayload & Record<string, unknown>,
  claims: JWTPayload & Record<string, unknown>,
  options: SignOptions,
) {
  const key = options.rogue ? { ...rogueKey, kid: keys[0]!.kid } : keys[keys.length - 1]!;
  const issuedAt = Math.floor(options.now.getTime() / 1000);
  const payload = {
    iat: issuedAt,
    exp: issuedAt + (options.expiresIn ?? 3600),
    ...defaults,
    ...claims,
  };
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? key.kid, typ: 'JWT' })
    .sign(key.privateKey);
}

/** The environment that points every provider at the server at `url`. */
const identityEnv = (url: string) => ({
  GOOGLE_CLIENT_ID: GOOGLE_CLIENT_ID,
  GOOGLE_JWKS_URL: `${url}/google/certs`,
  GOOGLE_TOKENINFO_URL: `${url}/google/tokeninfo`,
  GOOGLE_USERINFO_URL: `${url}/google/userinfo`,
  APPLE_CLIENT_ID: APPLE_CLIENT_ID,
  APPLE_JWKS_URL: `${url}/apple/keys`,
  FACEBOOK_APP_ID: FACEBOOK_APP_ID,
  FACEBOOK_APP_SECRET: FACEBOOK_APP_SECRET,
  FACEBOOK_GRAPH_URL: `${url}/facebook`,
});

export async function startFakeIdentity(): Promise<FakeIdentity> {
  const state: IdentityState = {
    googleKeys: [await newSigningKey('google-key-1'), await newSigningKey('google-key-2')],
    appleKeys: [await newSigningKey('apple-key-1')],
    rogueKey: await newSigningKey('rogue'),
    googleAccessTokens: new Map(),
    facebookTokens: new Map(),
    requests: [],
    failures: 0,
  };
  const server = createIdentityServer(state);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    googleClientId: GOOGLE_CLIENT_ID,
    appleClientId: APPLE_CLIENT_ID,
    facebookAppId: FACEBOOK_APP_ID,
    facebookAppSecret: FACEBOOK_APP_SECRET,
    env: identityEnv(url),
    requests: state.requests,
    googleAccessTokens: state.googleAccessTokens,
    facebookTokens: state.facebookTokens,
    googleIdToken: (claims, options) =>
      sign(
        state.googleKeys,
        state.rogueKey,
        {
          iss: 'https://accounts.google.com',
          aud: GOOGLE_CLIENT_ID,
          azp: GOOGLE_CLIENT_ID,
          sub: String(randomInt(1e9, 2 ** 47)),
          email_verified: true,
        },
        claims,
        options,
      ),
    appleIdToken: (claims, options) =>
      sign(
        state.appleKeys,
        state.rogueKey,
        {
          iss: 'https://appleid.apple.com',
          aud: APPLE_CLIENT_ID,
          sub: `000${randomInt(1e5, 1e6)}.${randomBytes(16).toString('hex')}.0${randomInt(100, 999)}`,
          email_verified: 'true',
          is_private_email: 'false',
          auth_time: Math.floor(options.now.getTime() / 1000),
          nonce_supported: true,
        },
        claims,
        options,
      ),
    facebookToken(token) {
      const value = randomToken('EAAB');
      state.facebookTokens.set(value, { appId: FACEBOOK_APP_ID, ...token });
      return value;
    },
    googleAccessToken(token) {
      const value = randomToken('ya29.');
      state.googleAccessTokens.set(value, { clientId: GOOGLE_CLIENT_ID, ...token });
      return value;
    },
    failNext(count) {
      state.failures = count;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Replaces a JWT's payload with `edit(payload)` and keeps the original signature: a tampered token. */
export function tamperPayload(
  token: string,
  edit: (payload: Record<string, unknown>) => Record<string, unknown>,
) {
  const [header, payload, signature] = token.split('.');
  const decoded = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
  const edited = Buffer.from(JSON.stringify(edit(decoded))).toString('base64url');
  return `${header}.${edited}.${signature}`;
}
