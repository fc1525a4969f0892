import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/**
 * A local SMTP server that records every message it accepts (tests and `npm run chaos`). `outage()` makes
 * it refuse mail with a 4xx/5xx reply, or hold each message `hangMs` before answering, until called with null.
 */
export interface FakeSmtp {
  port: number;
  url: string;
  received: ReceivedMail[];
  /** How many SMTP sessions (TCP connections) clients have opened so far. */
  connections(): number;
  outage(fault: { code: number } | { hangMs: number } | null): void;
  close(): Promise<void>;
}

export async function startFakeSmtp(options: { port?: number } = {}): Promise<FakeSmtp> {
  const received: ReceivedMail[] = [];
  let fault: { code: number } | { hangMs: number } | null = null;
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    // Closing drops the clients' kept connections (the provider pools them) instead of waiting 30 s.
    closeTimeout: 100,
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const current = fault;
        if (current && 'code' in current) {
          return callback(Object.assign(new Error('Service unavailable'), { responseCode: current.code }));
        }
        const accept = () => {
          received.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        };
        if (current && 'hangMs' in current) setTimeout(accept, current.hangMs).unref();
        else accept();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server as unknown as { server: { address(): AddressInfo } }).server.address().port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    connections: () => connections,
    outage(next) {
      fault = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
