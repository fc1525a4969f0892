import { desc } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { localEmails } from '../../db/schema.ts';
import type { Logger } from '../../lib/logger.ts';
import type { EmailMessage, EmailProvider } from './index.ts';

/** The latest stored emails, newest first (the local mailbox at /dev/mailbox shows them). */
export function latestLocalEmails(db: Database, limit = 100) {
  return db.select().from(localEmails).orderBy(desc(localEmails.seq)).limit(limit);
}

/**
 * The embedded default: emails are stored in the database and shown at /dev/mailbox, and a one-line
 * summary (with the code or link) goes to the server log, so `npm start` needs no mail account.
 */
export function createLocalEmailProvider(deps: {
  from: string;
  db: Database;
  logger: Logger;
  /** The code or link goes to the log only for the person at the machine (loopback HOST, issue 12). */
  logSecrets?: boolean;
}): EmailProvider {
  return {
    name: 'local',
    async send(message: EmailMessage) {
      await deps.db.insert(localEmails).values({
        to: message.to,
        from: deps.from,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      deps.logger.info(
        { mailbox: '/dev/mailbox', to: message.to },
        deps.logSecrets === false
          ? // Subjects carry codes too: only the recipient, for the admin to look up in the mailbox.
            `email to ${message.to} (in the local mailbox)`
          : `email to ${message.to}: ${message.subject}${message.logSummary ? ` (${message.logSummary})` : ''}`,
      );
    },
    async close() {},
  };
}
