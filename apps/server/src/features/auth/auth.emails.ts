import { type SocialProviderId, socialProviderNames, socialProviders } from '@waitlist/contract';
import type { EmailMessage } from '../../providers/email/index.ts';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function layout(title: string, paragraphs: string[], action?: { label: string; href: string }) {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.href)}" style="background:#4f46e5;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p>`
    : '';
  return `<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#111827;background:#f9fafb;padding:24px"><div style="max-width:520px;margin:auto;background:#fff;border-radius:12px;padding:32px"><h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>${body}${button}<p style="color:#6b7280;font-size:13px;margin-top:32px">Waitlist &amp; Text</p></div></body></html>`;
}

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

export function passwordChangedEmail(to: string, firstName: string): EmailMessage {
  const lines = [
    `Hi ${firstName},`,
    'Your Waitlist & Text password was just changed, and your other sessions were signed out.',
    'If this was not you, reset your password right away.',
  ];
  return {
    to,
    subject: 'Your password was changed',
    text: lines.join('\n\n'),
    html: layout('Password changed', lines),
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
