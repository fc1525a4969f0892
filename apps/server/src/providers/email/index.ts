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
  send(message: EmailMessage): Promise<void>;
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
