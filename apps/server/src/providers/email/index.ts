import type { Database } from '../../db/client.ts';
import type { Logger } from '../../lib/logger.ts';
import { createLocalEmailProvider } from './local.ts';
import { createSmtpEmailProvider } from './smtp.ts';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** One line for the local provider's log, e.g. "verification code 123456"; never sent. */
  logSummary?: string;
}

export interface EmailProvider {
  readonly name: 'smtp' | 'local';
  /**
   * `messageId`: the outbox row's id, sent as the Message-ID header, so a resend after an answer that never
   * reached us (an SMTP server that accepted after our timeout) carries the same id and mail systems can
   * drop the second copy.
   */
  send(message: EmailMessage, options?: { messageId?: string }): Promise<void>;
  close(): Promise<void>;
}

export type EmailConfig =
  | { provider: 'smtp'; url: string; from: string }
  | { provider: 'local'; from: string };

export function createEmailProvider(
  config: EmailConfig,
  deps: { db: Database; logger: Logger; logSecrets?: boolean },
): EmailProvider {
  return config.provider === 'smtp'
    ? createSmtpEmailProvider({ url: config.url, from: config.from })
    : createLocalEmailProvider({ from: config.from, ...deps });
}
