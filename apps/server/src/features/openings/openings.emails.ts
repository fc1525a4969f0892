import type { EmailMessage } from '../../providers/email/index.ts';
import { emailHtml } from '../../providers/email/layout.ts';

/** The owner's notification that a cancellation alert filled the slot. */
export function openingFilledEmail(
  owner: { email: string; firstName: string },
  filled: { customerName: string; customerPhone: string; service: string; time: string; openingsUrl: string },
): EmailMessage {
  const lines = [
    `Hi ${owner.firstName},`,
    `${filled.customerName} (${filled.customerPhone}) claimed your ${filled.service} opening on ${filled.time}.`,
    'They have been sent a confirmation text. The other customers who replied are told the spot was filled.',
  ];
  return {
    to: owner.email,
    subject: `Filled: ${filled.service} on ${filled.time}`,
    text: [...lines, `See your openings: ${filled.openingsUrl}`].join('\n\n'),
    html: emailHtml('Your opening was filled', lines, {
      label: 'See your openings',
      href: filled.openingsUrl,
    }),
    logSummary: `opening filled by ${filled.customerName}`,
  };
}
