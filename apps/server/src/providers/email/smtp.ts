import type { Transporter } from 'nodemailer';
import type { EmailMessage, EmailProvider } from './index.ts';

/**
 * Real email over SMTP (SMTP_URL, e.g. smtp://user:pass@host:587) through nodemailer, loaded with the first
 * email rather than at start-up (issue 16).
 */
export function createSmtpEmailProvider(options: { url: string; from: string }): EmailProvider {
  let transport: Promise<Transporter> | undefined;
  const open = () => {
    transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport(options.url),
    );
    return transport;
  };
  return {
    name: 'smtp',
    async send(message: EmailMessage) {
      await (await open()).sendMail({
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
