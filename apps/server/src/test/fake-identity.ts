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

export async function startFakeIdentity(): Promise<FakeIdentity> {
  const googleKeys = [await newSigningKey('google-key-1'), await newSigningKey('google-key-2')];
  const appleKeys = [await newSigningKey('apple-key-1')];
  const rogueKey = await newSigningKey('rogue');
  let failures = 0;

  const googleClientId = '1234567890-test.apps.googleusercontent.com';
  const appleClientId = 'com.example.waitlist.web';
  const facebookAppId = '987654321012345';
  const facebookAppSecret = 'fb-app-secret-for-tests';

  const googleAccessTokens = new Map<string, GoogleAccessToken>();
  const facebookTokens = new Map<string, FacebookToken>();
  const requests: RecordedIdentityRequest[] = [];

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
    return status;
  };

  function handle(path: string, query: URLSearchParams, headers: IncomingHttpHeaders, res: ServerResponse) {
    if (failures > 0) {
      failures -= 1;
      return send(res, 500, { error: 'backend error' });
    }
    if (path === '/google/certs') return send(res, 200, { keys: googleKeys.map((key) => key.publicJwk) });
    if (path === '/apple/keys') return send(res, 200, { keys: appleKeys.map((key) => key.publicJwk) });

    if (path === '/google/tokeninfo') {
      const token = googleAccessTokens.get(query.get('access_token') ?? '');
      if (!token || (token.expiresIn ?? 3600) <= 0)
        return send(res, 400, { error: 'invalid_token', error_description: 'Invalid Value' });
      return send(res, 200, {
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
      const token = googleAccessTokens.get(bearer);
      if (!token || (token.expiresIn ?? 3600) <= 0)
        return send(res, 401, { error: 'invalid_request', error_description: 'Invalid Credentials' });
      return send(res, 200, {
        sub: token.sub,
        name: `${token.givenName ?? ''} ${token.familyName ?? ''}`.trim(),
        given_name: token.givenName,
        family_name: token.familyName,
        ...(token.email ? { email: token.email, email_verified: token.emailVerified ?? true } : {}),
      });
    }

    if (path === '/facebook/debug_token') {
      if (query.get('access_token') !== `${facebookAppId}|${facebookAppSecret}`)
        return send(res, 400, {
          error: { message: 'Invalid OAuth access token signature.', type: 'OAuthException', code: 190 },
        });
      const token = facebookTokens.get(query.get('input_token') ?? '');
      if (!token)
        return send(res, 200, {
          data: { error: { code: 190, message: 'Invalid OAuth access token.' }, is_valid: false, scopes: [] },
        });
      return send(res, 200, {
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
      const token = facebookTokens.get(accessToken);
      if (!token || token.isValid === false)
        return send(res, 400, {
          error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 },
        });
      const expectedProof = createHmac('sha256', facebookAppSecret).update(accessToken).digest('hex');
      if (query.get('appsecret_proof') !== expectedProof)
        return send(res, 400, {
          error: {
            message: 'Invalid appsecret_proof provided in the API argument',
            type: 'GraphMethodException',
            code: 100,
          },
        });
      const fields = (query.get('fields') ?? 'id,name').split(',');
      const profile: Record<string, unknown> = { id: token.userId, ...token.profile };
      return send(
        res,
        200,
        Object.fromEntries(fields.filter((f) => f in profile).map((f) => [f, profile[f]])),
      );
    }
    return send(res, 404, { error: 'not found' });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    req.resume();
    req.on('end', () => {
      let status: number;
      try {
        status = handle(url.pathname, url.searchParams, req.headers, res);
      } catch {
        status = send(res, 500, { error: 'fake failed' });
      }
      requests.push({
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        status,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function sign(
    keys: SigningKey[],
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

  return {
    url,
    googleClientId,
    appleClientId,
    facebookAppId,
    facebookAppSecret,
    env: {
      GOOGLE_CLIENT_ID: googleClientId,
      GOOGLE_JWKS_URL: `${url}/google/certs`,
      GOOGLE_TOKENINFO_URL: `${url}/google/tokeninfo`,
      GOOGLE_USERINFO_URL: `${url}/google/userinfo`,
      APPLE_CLIENT_ID: appleClientId,
      APPLE_JWKS_URL: `${url}/apple/keys`,
      FACEBOOK_APP_ID: facebookAppId,
      FACEBOOK_APP_SECRET: facebookAppSecret,
      FACEBOOK_GRAPH_URL: `${url}/facebook`,
    },
    requests,
    googleAccessTokens,
    facebookTokens,
    googleIdToken: (claims, options) =>
      sign(
        googleKeys,
        {
          iss: 'https://accounts.google.com',
          aud: googleClientId,
          azp: googleClientId,
          sub: String(randomInt(1e9, 2 ** 47)),
          email_verified: true,
        },
        claims,
        options,
      ),
    appleIdToken: (claims, options) =>
      sign(
        appleKeys,
        {
          iss: 'https://appleid.apple.com',
          aud: appleClientId,
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
      facebookTokens.set(value, { appId: facebookAppId, ...token });
      return value;
    },
    googleAccessToken(token) {
      const value = randomToken('ya29.');
      googleAccessTokens.set(value, { clientId: googleClientId, ...token });
      return value;
    },
    failNext(count) {
      failures = count;
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
