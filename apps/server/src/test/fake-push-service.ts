import { createDecipheriv, createECDH, createHmac, createPublicKey, randomBytes, verify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local Web Push service (the browser vendor's side, faked at the wire), node:crypto only. It hands out
 * subscriptions whose keys it made itself, and for every push it receives it checks the VAPID header
 * (RFC 8292: an ES256 JWT signed by `k`, aud = this origin, exp in the future and within 24 h, sub a
 * mailto:/https: URL) and decrypts the aes128gcm body (RFC 8291 key derivation, RFC 8188 record).
 * `answer` sets the status a subscription's next pushes get (e.g. 503 then 201, or 410 gone).
 */
export interface ReceivedPush {
  subscription: string;
  payload: unknown;
  ttl: string | undefined;
  urgency: string | undefined;
  vapidPublicKey: string;
  claims: { aud: string; exp: number; sub: string };
}

const b64u = (buffer: Buffer) => buffer.toString('base64url');

function hmac(key: Buffer, data: Buffer) {
  return createHmac('sha256', key).update(data).digest();
}

/** RFC 8291 §3.4 then RFC 8188 §2: one record, padding delimiter 0x02. */
export function decryptAes128gcm(body: Buffer, uaPrivate: Buffer, uaPublic: Buffer, authSecret: Buffer) {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const asPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(uaPrivate);
  const sharedSecret = ecdh.computeSecret(asPublic);
  const prkKey = hmac(authSecret, sharedSecret);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic, Buffer.from([1])]);
  const ikm = hmac(prkKey, keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('no last-record padding delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/** RFC 8292: `vapid t=<jwt>, k=<public key>`; throws naming what is wrong. */
export function checkVapid(header: string | undefined, origin: string) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match) throw new Error(`bad Authorization header: ${header}`);
  const [, jwt, k] = match as unknown as [string, string, string];
  const [head, body, signature] = jwt.split('.') as [string, string, string];
  const header1 = JSON.parse(Buffer.from(head, 'base64url').toString());
  if (header1.alg !== 'ES256') throw new Error('alg is not ES256');
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33)) },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${head}.${body}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) throw new Error('VAPID signature does not verify');
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
  const now = Date.now() / 1000;
  if (claims.aud !== origin) throw new Error(`aud ${claims.aud} is not ${origin}`);
  if (!(claims.exp > now && claims.exp <= now + 24 * 3600 + 60)) throw new Error('exp out of range');
  if (!/^(mailto:|https:)/.test(claims.sub ?? '')) throw new Error('sub is not mailto: or https:');
  return { claims, k };
}

export async function startFakePushService(port = 0) {
  const keys = new Map<string, { priv: Buffer; pub: Buffer; auth: Buffer }>();
  const answers = new Map<string, number[]>();
  const received: ReceivedPush[] = [];
  const rejected: string[] = [];
  let origin = '';
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const id = /^\/push\/([\w-]+)$/.exec(request.url ?? '')?.[1];
      const sub = id ? keys.get(id) : undefined;
      if (request.method !== 'POST' || !id || !sub) {
        response.writeHead(404).end();
        return;
      }
      const planned = answers.get(id)?.shift();
      if (planned && planned >= 300) {
        response.writeHead(planned).end();
        return;
      }
      try {
        if (request.headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
        const vapid = checkVapid(request.headers.authorization, origin);
        const text = decryptAes128gcm(Buffer.concat(chunks), sub.priv, sub.pub, sub.auth);
        received.push({
          subscription: id,
          payload: JSON.parse(text),
          ttl: request.headers.ttl as string | undefined,
          urgency: request.headers.urgency as string | undefined,
          vapidPublicKey: vapid.k,
          claims: vapid.claims,
        });
        response.writeHead(201).end();
      } catch (error) {
        rejected.push((error as Error).message);
        response.writeHead(400).end((error as Error).message);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    rejected,
    /** A subscription as the browser's PushSubscription.toJSON() gives it, with keys made here. */
    subscribe() {
      const id = randomBytes(8).toString('hex');
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const entry = { priv: ecdh.getPrivateKey(), pub: ecdh.getPublicKey(), auth: randomBytes(16) };
      keys.set(id, entry);
      return {
        id,
        endpoint: `${origin}/push/${id}`,
        keys: { p256dh: b64u(entry.pub), auth: b64u(entry.auth) },
      };
    },
    /** The statuses the subscription's next pushes answer with, in order (then 201). */
    answer(id: string, ...statuses: number[]) {
      answers.set(id, statuses);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type FakePushService = Awaited<ReturnType<typeof startFakePushService>>;
