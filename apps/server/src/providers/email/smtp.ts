import nodemailer from 'nodemailer';
import type { EmailMessage, EmailProvider } from './index.ts';

/** Real email over SMTP (SMTP_URL, e.g. smtp://user:pass@host:587) through nodemailer. */
export function createSmtpEmailProvider(options: { url: string; from: string }): EmailProvider {
  const transport = nodemailer.createTransport(options.url);
  return {
    name: 'smtp',
    async send(message: EmailMessage) {
      await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
    },
    async close() {
      transport.close();
    },
  };
}
