import type { Transporter } from 'nodemailer';
import type { EmailMessage, EmailProvider } from './index.ts';

/**
 * Real email over SMTP (SMTP_URL, e.g. smtp://user:pass@host:587) through nodemailer, loaded with the first
 * email rather than at start-up (issue 16).
 */
export function createSmtpEmailProvider(options: { url: string; from: string }): EmailProvider {
  // Bounded waits: a mail server that hangs must not hold the outbox (texts wait behind it) for minutes;
  // the send fails and the outbox retries it with backoff.
  let transport: Promise<Transporter> | undefined;
  const open = () => {
    transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: options.url,
        // One connection kept open and reused, not one opened per email: a new SMTP session (TCP, greeting,
        // EHLO, AUTH) took ~110 ms a message here, so the Monday summaries of 76,000 owners took 2.3 hours to
        // hand over; over a pool, 4.8 minutes (issue 30, `npm run bench:weekly`). Up to 5 at once when
        // several sends overlap; nodemailer opens a new connection when the server closes an idle one.
        pool: true,
        maxConnections: 5,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 15_000,
      }),
    );
    return transport;
  };
  return {
    name: 'smtp',
    async send(message: EmailMessage, sendOptions?: { messageId?: string }) {
      await (await open()).sendMail({
        ...(sendOptions?.messageId
          ? { messageId: `<${sendOptions.messageId}@waitlist-and-text.outbox>` }
          : {}),
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
    },
    async close() {
      if (transport) (await transport).close();
    },
  };
}
