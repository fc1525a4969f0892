import { type SocialProviderId, socialProviderNames, socialProviders } from '@waitlist/contract';
import { zonedFormat } from '../../lib/time-zone.ts';
import type { EmailMessage } from '../../providers/email/index.ts';
import { emailHtml } from '../../providers/email/layout.ts';

const layout = emailHtml;

export function verificationCodeEmail(to: string, firstName: string, code: string): EmailMessage {
  const lines = [
    `Hi ${firstName},`,
    `Your Waitlist & Text verification code is ${code}.`,
    'It expires in 10 minutes. If you did not create an account, you can ignore this email.',
  ];
  return {
    to,
    subject: `Your verification code: ${code}`,
    text: lines.join('\n\n'),
    html: layout('Verify your email', lines),
    logSummary: `verification code ${code}`,
  };
}

/** The code that confirms a new address of a verified account (issue 12); sent to the new address. */
export function emailChangeCodeEmail(to: string, firstName: string, code: string): EmailMessage {
  const lines = [
    `Hi ${firstName},`,
    `Your Waitlist & Text code to confirm this new email address is ${code}.`,
    'Enter it on your Account page within 10 minutes. Until then your account keeps its old address. If you did not ask for this, you can ignore this email.',
  ];
  return {
    to,
    subject: `Confirm your new email address: ${code}`,
    text: lines.join('\n\n'),
    html: layout('Confirm your new email address', lines),
    logSummary: `email change code ${code}`,
  };
}

export function passwordResetEmail(to: string, firstName: string, link: string): EmailMessage {
  const lines = [
    `Hi ${firstName},`,
    'We received a request to reset your Waitlist & Text password. The link below works once, for one hour.',
    'If you did not ask for this, ignore this email: your password stays the same.',
  ];
  return {
    to,
    subject: 'Reset your password',
    text: `${lines[0]}\n\n${lines[1]}\n\n${link}\n\n${lines[2]}`,
    html: layout('Reset your password', lines, { label: 'Choose a new password', href: link }),
    logSummary: `reset link ${link}`,
  };
}

/** "Nov 23, 2026, 10:00 AM EST": one options object, so zonedFormat builds one formatter per time zone. */
const changedAtFormat: Intl.DateTimeFormatOptions = {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
};

/**
 * Sent after a change with the current password and after a reset (issue 27): when it happened, in the
 * owner's time zone, and what to do at once if it was not them.
 */
export function passwordChangedEmail(
  user: { email: string; firstName: string; timeZone: string },
  changedAt: Date,
  publicUrl: string,
): EmailMessage {
  const when = zonedFormat(changedAtFormat, user.timeZone).format(changedAt);
  const forgotLink = `${publicUrl}/forgot-password`;
  const lines = [
    `Hi ${user.firstName || 'there'},`,
    `Your Waitlist & Text password was changed on ${when}, and your other sessions were signed out.`,
    'If this was you, there is nothing more to do.',
    `If this was not you, reset your password at once with the forgot-password link (${forgotLink}), then contact our support team by replying to this email so we can check your account.`,
  ];
  return {
    to: user.email,
    subject: 'Your password was changed',
    text: lines.join('\n\n'),
    html: layout('Your password was changed', lines, { label: 'Reset my password', href: forgotLink }),
  };
}

/** Forgot-password for an account that signs in only with Google, Facebook or Apple: no link, just the way in. */
export function socialAccountPasswordEmail(
  to: string,
  firstName: string,
  provider: string | null,
): EmailMessage {
  const known = socialProviders.includes(provider as SocialProviderId);
  const button = known ? socialProviderNames[provider as SocialProviderId] : 'Google, Facebook or Apple';
  const lines = [
    `Hi ${firstName || 'there'},`,
    `We received a request to reset your Waitlist & Text password, but your account has no password: you sign in with ${button}.`,
    `Use the ${button} button on the login page. Nothing about your account has changed.`,
    'If you did not ask for this, you can ignore this email.',
  ];
  return {
    to,
    subject: `You sign in with ${button}`,
    text: lines.join('\n\n'),
    html: layout(`You sign in with ${button}`, lines),
  };
}
