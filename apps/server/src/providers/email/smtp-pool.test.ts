import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSmtp, startFakeSmtp } from '../../test/fake-smtp.ts';
import { createSmtpEmailProvider } from './smtp.ts';

/** The SMTP provider keeps its connections (issue 30), against a real SMTP server (smtp-server, in this process). */
let smtp: FakeSmtp;
beforeAll(async () => {
  smtp = await startFakeSmtp();
});
afterAll(() => smtp.close());

const message = (n: number) => ({
  to: `owner${n}@example.com`,
  subject: `Summary ${n}`,
  text: `Your waitlist recovered $${n} this week.`,
  html: `<p>Your waitlist recovered $${n} this week.</p>`,
});

describe('the SMTP provider', () => {
  it('sends one email after another over one connection, not one connection each', async () => {
    const provider = createSmtpEmailProvider({ url: smtp.url, from: 'Waitlist <hello@example.com>' });
    const before = smtp.connections();
    for (let n = 1; n <= 20; n += 1) await provider.send(message(n), { messageId: `m${n}` });
    await provider.close();
    const sent = smtp.received.slice(-20);
    expect(sent.map((mail) => mail.to[0])).toEqual(
      Array.from({ length: 20 }, (_, i) => `owner${i + 1}@example.com`),
    );
    expect(sent[4]?.raw).toContain('Message-ID: <m5@waitlist-and-text.outbox>');
    expect(smtp.connections() - before).toBe(1);
  });

  it('fails a send the server refuses, and sends again over the pool once it accepts', async () => {
    const provider = createSmtpEmailProvider({ url: smtp.url, from: 'hello@example.com' });
    const count = smtp.received.length;
    smtp.outage({ code: 451 });
    await expect(provider.send(message(99))).rejects.toThrow();
    smtp.outage(null);
    await provider.send(message(100));
    await provider.close();
    expect(smtp.received.slice(count).map((mail) => mail.to[0])).toEqual(['owner100@example.com']);
  });
});
