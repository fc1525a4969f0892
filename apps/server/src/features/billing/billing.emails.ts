import type { EmailMessage } from '../../providers/email/index.ts';
import { emailHtml } from '../../providers/email/layout.ts';

/** The owner's billing emails: plain text plus a simple HTML version of the same lines. */

function message(
  to: string,
  subject: string,
  title: string,
  lines: string[],
  action?: { label: string; href: string },
): EmailMessage {
  const text = [...lines, ...(action ? [`${action.label}: ${action.href}`] : [])].join('\n\n');
  return {
    to,
    subject,
    text,
    html: emailHtml(title, lines, action),
  };
}

export interface Owner {
  email: string;
  firstName: string;
}

export function planChangeEmail(
  owner: Owner,
  change: { oldPlan: string; newPlan: string; detail: string | null },
  billingUrl: string,
): EmailMessage {
  return message(
    owner.email,
    `Your plan: ${change.newPlan}`,
    'Your plan has changed',
    [
      `Hi ${owner.firstName},`,
      `Your Waitlist & Text plan changed from ${change.oldPlan} to ${change.newPlan}.`,
      ...(change.detail ? [change.detail] : []),
      'Your invoices are on the Billing tab of your account.',
    ],
    { label: 'View billing', href: billingUrl },
  );
}

export function planCancelEmail(owner: Owner, activeUntil: string | null, planUrl: string): EmailMessage {
  return message(
    owner.email,
    'Your subscription is cancelled',
    'Your subscription is cancelled',
    [
      `Hi ${owner.firstName},`,
      activeUntil
        ? `Your subscription has been cancelled. It stays active until ${activeUntil}, and you will not be charged again.`
        : 'Your subscription has been cancelled, and you will not be charged again.',
      'Changed your mind? Resume it on the Plan tab before then.',
    ],
    { label: 'Manage your plan', href: planUrl },
  );
}

export function billingUpdateEmail(owner: Owner, billingUrl: string): EmailMessage {
  return message(
    owner.email,
    'Your billing information was updated',
    'Billing information updated',
    [
      `Hi ${owner.firstName},`,
      'The billing information of your Waitlist & Text account was just updated.',
      'If this was not you, check your payment methods and change your password.',
    ],
    { label: 'View billing', href: billingUrl },
  );
}

export function paymentFailedEmail(owner: Owner, billingUrl: string): EmailMessage {
  return message(
    owner.email,
    'Your payment failed',
    'We could not renew your subscription',
    [
      `Hi ${owner.firstName},`,
      'The payment for your Waitlist & Text subscription failed, so texting your waitlist is paused.',
      'Add or choose another card on the Billing tab: the open invoice is paid as soon as the new card is your default.',
    ],
    { label: 'Update your card', href: billingUrl },
  );
}

export function subscriptionEndedEmail(owner: Owner, planUrl: string): EmailMessage {
  return message(
    owner.email,
    'Your subscription has ended',
    'Your subscription has ended',
    [
      `Hi ${owner.firstName},`,
      'Your Waitlist & Text subscription has ended. Your waitlist and history are kept.',
      'Choose a plan to keep texting your waitlist.',
    ],
    { label: 'Choose a plan', href: planUrl },
  );
}

export function trialEndedEmail(owner: Owner, planUrl: string): EmailMessage {
  return message(
    owner.email,
    'Your free trial has ended',
    'Your free trial has ended',
    [
      `Hi ${owner.firstName},`,
      'Your 7-day free trial of Waitlist & Text has ended. Your waitlist and history are kept.',
      'Choose a plan to keep texting your waitlist.',
    ],
    { label: 'Choose a plan', href: planUrl },
  );
}
