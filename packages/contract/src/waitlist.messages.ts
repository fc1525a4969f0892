import { planLabels } from './messages.ts';
import { planCatalogue, planLimits } from './plan-catalogue.ts';

/** Waitlist plan rules (issue 5). `null` = unlimited. Keys are users.subscriptionPlan values (+ enterprise). */
export const WAITLIST_CAPS = { free_trial: 25, starter: 25, growth: 100, enterprise: null } as const;
/** SPEC defaults, kept for the pages that show them before the configuration loads; rules read the catalogue. */
/** Cancellation alerts per day, counted in the business's time zone. */
export const ALERTS_PER_DAY = { free_trial: 1, starter: 1, growth: 2, enterprise: null } as const;
export type WaitlistPlan = keyof typeof WAITLIST_CAPS;

/** The configured waitlist size of a plan (issue 39: the operator's plan catalogue; SPEC values by default). */
export function waitlistCap(plan: string): number | null {
  return planLimits(plan).waitlistSize;
}
/** The configured cancellation alerts a day of a plan. */
export function alertsPerDay(plan: string): number | null {
  return planLimits(plan).alertsPerDay;
}
export function planLabel(plan: string): string {
  if (plan in planCatalogue()) return planLimits(plan).name;
  return planLabels[plan as keyof typeof planLabels] ?? plan;
}

export const DEFAULT_TIME_ZONE = 'America/New_York';

/** The most time preferences one customer keeps. */
export const MAX_PREFERENCES = 14;

/**
 * A customer removed less than this long ago is restored to their old place in line (the toast's Undo, or
 * "Restore" on the list's removed rows); one removed earlier goes back at the end (issue 27).
 */
export const RESTORE_OLD_PLACE_DAYS = 7;

/** Editable text templates; placeholders {name} {business} {time}; the defaults are customer words. */
export const messageTemplateKeys = [
  'confirmation',
  'reminder',
  'cancellation_alert',
  'claimed',
  'already_filled',
] as const;
export type MessageTemplateKey = (typeof messageTemplateKeys)[number];

export const templateLabels: Record<MessageTemplateKey, string> = {
  confirmation: 'Appointment confirmation',
  reminder: 'Appointment reminder',
  cancellation_alert: 'Cancellation alert',
  claimed: 'Slot claimed',
  already_filled: 'Already filled',
};

/**
 * Fills {name} {business} {time}; unknown placeholders are left as typed. A value that ends with an
 * abbreviation's full stop ("a las 2:00 p.m.") takes the place of the template's own full stop after it, so
 * "{time}. ¡Te esperamos!" reads "p.m. ¡Te esperamos!", never "p.m.. ¡Te…" (issue 39); an ellipsis is kept.
 */
export function renderTemplate(
  body: string,
  values: { name?: string; business?: string; time?: string },
): string {
  return body.replace(
    /\{(name|business|time)\}(\.(?!\.))?/g,
    (match, key: 'name' | 'business' | 'time', stop: string | undefined) => {
      const value = values[key];
      if (value === undefined) return match;
      return stop && value.endsWith('.') ? value : value + (stop ?? '');
    },
  );
}

export const waitlistMessages = {
  capReached: (plan: string, cap: number) =>
    `Your ${planLabel(plan)} allows ${cap} customers on the waitlist. Upgrade to ${
      plan === 'growth'
        ? 'Enterprise'
        : `the ${planLabel('growth')} (${planLimits('growth').waitlistSize ?? 'unlimited'} customers)`
    } on the Plan tab to add more.`,
  duplicatePhone: (phone: string) => `A customer with the phone number ${phone} is already on your waitlist.`,
  invalidPhone: 'Please enter a valid phone number (for example (555) 123-4567 or +44 20 7946 0958)',
  phoneRequired: 'Phone number is required',
  nameRequired: 'Name is required',
  consentRequired: 'Please record how the customer agreed to receive texts',
  customerNotFound: 'Customer not found',
  reorderMismatch: 'The order must list every customer on the waitlist exactly once',
  invalidTimeZone: 'Please choose a valid time zone',
  invalidPreference: 'Times must be HH:MM and "from" must be before "to"',
  // ours (issue 27): every limit of the waitlist's forms in words
  invalidPreferenceDay: 'Please choose days from Sunday to Saturday',
  preferenceDaysRequired: 'Please choose at least one day',
  tooManyPreferences: (max: number) => `Add at most ${max} time preferences`,
  textTooLong: (max: number) => `A text can be at most ${max} characters`,
  waveSizeRange: 'Wave size must be a whole number from 1 to 100',
  claimWindowRange: 'The claim window must be a whole number of minutes from 1 to 1440 (24 hours)',
  // ours (issue 28): a customer's language
  invalidLanguage: 'Language must be English or Spanish',
  csvEmpty: 'The CSV file has no customers',
  csvTooLarge: 'Import at most 1,000 rows at a time',
  readOnly: (reason: string) => `Your waitlist is read-only. ${reason}`,
  alertsLimit: (plan: string, limit: number, resetsAt: string) =>
    `Your ${planLabel(plan)} allows ${limit} cancellation alert${limit === 1 ? '' : 's'} per day. The count resets at ${resetsAt}.`,
  openingNotFound: 'Opening not found',
  openingNotOpen: 'This opening is no longer open',
  openingInPast: 'The opening must start in the future',
  invalidStartsAt: 'Please enter a valid date and time',
  waveSizeRequired: 'Wave size and claim window are required for waves',
  noEligibleCustomers: 'No waiting, opted-in customers fit this time',
  templateUpdated: 'Template saved',
  timeZoneUpdated: 'Time zone saved',
  plainLettersUpdated: 'Spanish letters setting saved',
  // ours (issue 27: in the catalogue): an empty text or template
  messageRequired: 'Message is required',
  templateRequired: 'Template is required',
  customerAdded: 'Customer added',
  customerUpdated: 'Customer updated',
  customerRemoved: 'Customer removed',
  // ours (issue 27): undoing a removal
  customerRestored: 'Customer back on the waitlist',
  removedToast: (name: string) => `${name} removed`,
  restoreOptedOut: (name: string) =>
    `${name} texted STOP, so they cannot be put back on the waitlist. They can join again by texting JOIN.`,
  reordered: 'Waitlist order saved',
  textQueued: 'Text queued',
  openingCreated: 'Cancellation alert sent',
  openingClosed: 'Opening closed',
  imported: (count: number) => `Imported ${count} customer${count === 1 ? '' : 's'}`,
} as const;
