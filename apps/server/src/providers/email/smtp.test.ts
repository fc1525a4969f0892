import type { AddressInfo } from 'node:net';
import { screenMessages } from '@waitlist/contract';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../db/schema.ts';
import { retryDelayMs } from '../../outbox/index.ts';
import { auth, createTestApp, registerUser, type TestApp, uniqueIp } from '../../test/test-app.ts';

/**
 * The SMTP provider against a real SMTP server on this machine: the test reads the message the way a mail
 * server receives it, so nodemailer, the envelope and the MIME encoding are all exercised.
 */
interface Received {
  mailFrom: string;
  rcptTo: string[];
  raw: string;
}

const received: Received[] = [];
let rejectRecipients = false;

function startSmtpServer(port = 0): Promise<SMTPServer & { port: number }> {
  const server = new SMTPServer({
    authOptional: true,
    // Stopping drops the open connections at once (the provider keeps one open): a server going down.
    closeTimeout: 100,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (rejectRecipients) {
        return callback(
          Object.assign(new Error(`Mailbox ${address.address} unavailable`), { responseCode: 550 }),
        );
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcptTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = (server as unknown as { server: { address(): AddressInfo } }).server.address();
      resolve(Object.assign(server, { port: address.port }));
    });
  });
}
const stop = (server: SMTPServer) => new Promise<void>((resolve) => server.close(() => resolve()));

/** The decoded text/plain part and the headers of a raw MIME message (quoted-printable or 7bit). */
function parse(raw: string) {
  const [head = ''] = raw.split(/\r?\n\r?\n/);
  const header = (name: string) =>
    head
      .replace(/\r?\n[ \t]+/g, ' ')
      .split(/\r?\n/)
      .find((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`))
      ?.slice(name.length + 1)
      .trim();
  // Split on the boundary the message declares: a body line can start with "--" too (a base64url token can hold it).
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(header('Content-Type') ?? '')?.[1];
  const parts = boundary ? raw.split(`--${boundary}`) : [raw];
  const textPart = parts.find((part) => /content-type:\s*text\/plain/i.test(part)) ?? '';
  const [partHead = '', ...partBody] = textPart.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
  let text = partBody.join('\n\n').replace(/\r?\n$/, '');
  if (/quoted-printable/i.test(partHead)) {
    text = text
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_m, hex) => String.fromCharCode(parseInt(hex, 16)));
  }
  return { header, text, hasHtml: /content-type:\s*text\/html/i.test(raw) };
}

let smtp: SMTPServer & { port: number };
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({
    env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Waitlist & Text <no-reply@waitlist.test>' },
  });
});
afterAll(async () => {
  await t.close();
  await stop(smtp);
});

const outboxRowFor = async (to: string) =>
  (
    await t.database.db
      .select()
      .from(outbox)
      .where(sql`${outbox.payload}->>'to' = ${to}`)
      .orderBy(outbox.createdAt)
  ).at(-1)!;

describe('SMTP email provider', () => {
  it('delivers the verification email over SMTP; the code in it verifies the account', async () => {
    expect(t.app.services.email.name).toBe('smtp');
    const owner = await registerUser(t);
    await t.app.outbox.drain();

    const message = received.find((mail) => mail.rcptTo.includes(owner.email));
    expect(message).toBeDefined();
    expect(message!.mailFrom).toBe('no-reply@waitlist.test');
    expect(message!.rcptTo).toEqual([owner.email]);
    const { header, text, hasHtml } = parse(message!.raw);
    expect(header('From')).toMatch(/Waitlist & Text"? <no-reply@waitlist\.test>/);
    expect(header('To')).toBe(owner.email);
    const code = header('Subject')?.match(/^Your verification code: (\d{6})$/)?.[1];
    expect(code).toBeDefined();
    expect(text).toContain(`Your Waitlist & Text verification code is ${code}.`);
    expect(hasHtml).toBe(true);
    expect(await outboxRowFor(owner.email)).toMatchObject({ status: 'sent', attempts: 1 });

    const verify = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/verify-account',
      headers: auth(owner.token),
      payload: { verificationCode: code },
      remoteAddress: uniqueIp(),
    });
    expect(verify.statusCode).toBe(200);
    expect(verify.json().message).toBe(screenMessages.accountVerified);
  });

  it('keeps an email the server refused or could not be reached for, and delivers it on a later try', async () => {
    const owner = await registerUser(t);
    await t.app.outbox.drain();
    const before = received.length;

    // 1. The server refuses the recipient.
    rejectRecipients = true;
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgotpassword',
      payload: { email: owner.email },
      remoteAddress: uniqueIp(),
    });
    expect(forgot.json().message).toBe(screenMessages.forgotPasswordSent);
    await t.app.outbox.drain();
    let row = await outboxRowFor(owner.email);
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row.lastError).toContain('550');
    expect(row.nextAttemptAt.getTime()).toBe(t.clock.now().getTime() + retryDelayMs(1));

    // 2. The server is down.
    await stop(smtp);
    t.clock.advance(retryDelayMs(1));
    await t.app.outbox.drain();
    row = await outboxRowFor(owner.email);
    expect(row).toMatchObject({ status: 'pending', attempts: 2 });
    expect(row.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect(received.length).toBe(before);

    // 3. The server is back and accepts: the same email goes out, once.
    rejectRecipients = false;
    smtp = await startSmtpServer(smtp.port);
    t.clock.advance(retryDelayMs(2));
    await t.app.outbox.drain();
    row = await outboxRowFor(owner.email);
    expect(row).toMatchObject({ status: 'sent', attempts: 3, lastError: null });
    const delivered = received.slice(before);
    expect(delivered).toHaveLength(1);
    const { header, text } = parse(delivered[0]!.raw);
    expect(header('Subject')).toBe('Reset your password');
    expect(text).toMatch(/http:\/\/app\.test\/reset-password\/[\w-]{40,}/);
  });
});
