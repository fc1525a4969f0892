/**
 * A local stand-in for Google's identity servers, for the journeys: it makes an RS256 key at start,
 * publishes it as a JSON Web Key Set at GET /jwks (the app server's GOOGLE_JWKS_URL points here), and
 * signs Google-shaped ID tokens at the test-only POST /sign. Only node:crypto, so the e2e package needs
 * no dependency for it.
 *
 *   IDENTITY_PORT=3101 GOOGLE_CLIENT_ID=... node support/identity-server.mjs
 */
import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { createServer } from 'node:http';

const port = Number(process.env.IDENTITY_PORT ?? 3101);
const clientId = process.env.GOOGLE_CLIENT_ID ?? 'e2e-google-client.apps.googleusercontent.com';
const kid = randomUUID();
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwks = { keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }] };

const base64Url = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An ID token as Google Identity Services hands it to the page (its `credential`). */
function googleIdToken(profile) {
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    iss: 'https://accounts.google.com',
    azp: clientId,
    aud: profile.aud ?? clientId,
    sub: profile.sub,
    email: profile.email,
    email_verified: profile.email_verified ?? true,
    name: [profile.given_name, profile.family_name].filter(Boolean).join(' '),
    given_name: profile.given_name,
    family_name: profile.family_name,
    iat: now,
    exp: now + (profile.expiresIn ?? 3600),
  };
  const signingInput = `${base64Url({ alg: 'RS256', kid, typ: 'JWT' })}.${base64Url(claims)}`;
  const signature = sign('RSA-SHA256', Buffer.from(signingInput), privateKey).toString('base64url');
  return `${signingInput}.${signature}`;
}

function send(response, status, body) {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

const server = createServer((request, response) => {
  const { pathname } = new URL(request.url ?? '/', 'http://localhost');
  if (request.method === 'GET' && pathname === '/jwks') return send(response, 200, jwks);
  if (request.method === 'GET' && pathname === '/health') return send(response, 200, { ok: true });
  if (request.method === 'POST' && pathname === '/sign') {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => {
      raw += chunk;
    });
    request.on('end', () => {
      try {
        const profile = JSON.parse(raw || '{}');
        if (typeof profile.sub !== 'string' || !profile.sub)
          return send(response, 400, { error: 'sub is required' });
        send(response, 200, { credential: googleIdToken(profile) });
      } catch {
        send(response, 400, { error: 'invalid JSON' });
      }
    });
    return undefined;
  }
  return send(response, 404, { error: 'not found' });
});

server.listen(port, '127.0.0.1', () => {
  console.log(`identity server on http://127.0.0.1:${port} (Google client ${clientId})`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
