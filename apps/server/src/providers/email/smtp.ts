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
