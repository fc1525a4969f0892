import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import type { Locale } from './customer-words/index.ts';
import { fieldMessages } from './field-messages.ts';
import { offerMessages } from './offers.messages.ts';
import { MAX_PREFERENCES, messageTemplateKeys, waitlistMessages } from './waitlist.messages.ts';

/** The waitlist and cancellation-alert contract (issue 5, DESIGN.md §5). Timestamps are ISO 8601 strings. */

/** A phone number in any common format → E.164 (default country US), or null when it is not a valid number. */
export function normalizePhone(value: string, defaultCountry: 'US' = 'US'): string | null {
  const parsed = parsePhoneNumberFromString(value.trim(), defaultCountry);
  return parsed?.isValid() ? parsed.number : null;
}

/** Shows +12125550123 as (212) 555-0123, other countries in international format. */
export function formatPhone(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return e164;
  return parsed.country === 'US' ? parsed.formatNational() : parsed.formatInternational();
}

export const customerStatuses = ['waiting', 'offered', 'booked', 'removed'] as const;
export type CustomerStatus = (typeof customerStatuses)[number];
export const consentMethods = ['verbal', 'written', 'web_form', 'text_keyword', 'imported'] as const;
export type ConsentMethod = (typeof consentMethods)[number];
/**
 * The language a customer reads their texts in (issue 28): the catalogue's locales. The owner's screens stay
 * in English and name each one in its own words.
 */
export const customerLanguages = ['en', 'es'] as const satisfies readonly Locale[];
export type CustomerLanguage = Locale;
export const languageLabels: Record<CustomerLanguage, string> = { en: 'English', es: 'Español' };
const languageField = z.enum(customerLanguages, { error: waitlistMessages.invalidLanguage });

export const consentLabels: Record<ConsentMethod, string> = {
  verbal: 'Verbal (in person or by phone)',
  written: 'Written (signed form)',
  web_form: 'Web form',
  text_keyword: 'Texted a keyword',
  imported: 'Imported (consent collected elsewhere)',
};

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, waitlistMessages.invalidPreference);
export const timePreferenceSchema = z
  .object({
    /** 0 = Sunday … 6 = Saturday. */
    days: z
      .array(
        z
          .number()
          .int(waitlistMessages.invalidPreferenceDay)
          .min(0, waitlistMessages.invalidPreferenceDay)
          .max(6, waitlistMessages.invalidPreferenceDay),
      )
      .min(1, waitlistMessages.preferenceDaysRequired),
    from: hhmm,
    to: hhmm,
  })
  .refine((p) => p.from < p.to, { message: waitlistMessages.invalidPreference, path: ['to'] });
export type TimePreference = z.infer<typeof timePreferenceSchema>;

export const customerSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** E.164. */
  phone: z.string(),
  notes: z.string(),
  status: z.enum(customerStatuses),
  position: z.number().int(),
  consentMethod: z.enum(consentMethods),
  consentedAt: z.string(),
  optedOut: z.boolean(),
  optedOutAt: z.string().nullable(),
  preferences: z.array(timePreferenceSchema),
  firstTextSent: z.boolean(),
  /** The service they wait for (issue 26); null: any. */
  serviceId: z.string().nullable(),
  /** The staff member they want; null: no preference. */
  staffId: z.string().nullable(),
  /** Their own time zone for quiet hours; null: the business's. */
  timeZone: z.string().nullable(),
  /** The language they read their texts in (issue 28). */
  language: z.enum(customerLanguages),
  vip: z.boolean(),
  pinned: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Customer = z.infer<typeof customerSchema>;

const nameField = z
  .string({ error: waitlistMessages.nameRequired })
  .trim()
  .min(1, waitlistMessages.nameRequired)
  .max(100, fieldMessages.tooLong(100));
const phoneField = z
  .string({ error: waitlistMessages.phoneRequired })
  .trim()
  .min(1, waitlistMessages.phoneRequired)
  .refine((value) => normalizePhone(value) !== null, waitlistMessages.invalidPhone);

const notesField = z.string().max(1000, fieldMessages.tooLong(1000)).optional();
const preferencesField = z
  .array(timePreferenceSchema)
  .max(MAX_PREFERENCES, waitlistMessages.tooManyPreferences(MAX_PREFERENCES))
  .optional();

/** What an entry waits for and how the offer policy treats it (issue 26); all optional. */
const entryFields = {
  serviceId: z.string().uuid(offerMessages.serviceNotFound).nullable().optional(),
  staffId: z.string().uuid(offerMessages.staffNotFound).nullable().optional(),
  timeZone: z.string().refine(isValidTimeZone, waitlistMessages.invalidTimeZone).nullable().optional(),
  vip: z.boolean().optional(),
  pinned: z.boolean().optional(),
  /** The customer's language (issue 28); a new customer without one reads English. */
  language: languageField.optional(),
};

export const createCustomerBody = z.object({
  name: nameField,
  /** Any common format; stored as E.164. */
  phone: phoneField,
  notes: notesField,
  consentMethod: z.enum(consentMethods, { error: waitlistMessages.consentRequired }),
  preferences: preferencesField,
  ...entryFields,
});
export type CreateCustomerBody = z.infer<typeof createCustomerBody>;

export const updateCustomerBody = z.object({
  name: nameField.optional(),
  phone: phoneField.optional(),
  notes: notesField,
  consentMethod: z.enum(consentMethods).optional(),
  preferences: preferencesField,
  status: z.enum(['waiting', 'offered', 'booked']).optional(),
  ...entryFields,
});
export type UpdateCustomerBody = z.infer<typeof updateCustomerBody>;

export const reorderBody = z.object({
  ids: z.array(z.string().uuid(waitlistMessages.customerNotFound)).min(1, waitlistMessages.reorderMismatch),
});
export const csvBody = z.object({
  csv: z.string({ error: waitlistMessages.csvEmpty }).max(500_000, waitlistMessages.csvTooLarge),
});

export const waitlistListQuery = z.object({
  search: z.string().optional(),
  status: z.enum(customerStatuses).optional(),
  /** Only the customers who read this language (issue 28). */
  language: languageField.optional(),
});

/** A customer as the waitlist lists them: with their real place in line (1-based; null when booked or removed). */
export const listedCustomerSchema = customerSchema.extend({ place: z.number().int().nullable() });
export type ListedCustomer = z.infer<typeof listedCustomerSchema>;

export const waitlistListResponse = z.object({
  success: z.literal(true),
  data: z.array(listedCustomerSchema),
  count: z.number().int(),
  /** null = unlimited. */
  cap: z.number().int().nullable(),
  plan: z.string(),
  readOnly: z.boolean(),
  readOnlyReason: z.string().nullable(),
});
export type WaitlistListResponse = z.infer<typeof waitlistListResponse>;

export const customerResponse = z.object({
  success: z.literal(true),
  data: customerSchema,
  message: z.string().optional(),
});

export const importRowSchema = z.object({
  line: z.number().int(),
  name: z.string(),
  /** E.164 when valid, otherwise as typed. */
  phone: z.string(),
  error: z.string().nullable(),
  /** Issue 39: what the row got: the business's service and staff member by their own names, the language. */
  service: z.string().nullable().optional(),
  staff: z.string().nullable().optional(),
  language: z.enum(['en', 'es']).optional(),
});
export type ImportRow = z.infer<typeof importRowSchema>;
export const importPreviewResponse = z.object({
  success: z.literal(true),
  data: z.object({ rows: z.array(importRowSchema), valid: z.number().int(), invalid: z.number().int() }),
});
export const importResponse = z.object({
  success: z.literal(true),
  data: z.object({ imported: z.number().int(), rows: z.array(importRowSchema) }),
  message: z.string(),
});

// ---- messages (texts) ----

export const messageDirections = ['out', 'in'] as const;
export const messageStatuses = ['queued', 'sent', 'delivered', 'failed', 'received', 'undelivered'] as const;
export type MessageStatus = (typeof messageStatuses)[number];
export const messageSchema = z.object({
  id: z.string(),
  customerId: z.string().nullable(),
  openingId: z.string().nullable(),
  direction: z.enum(messageDirections),
  fromNumber: z.string(),
  toNumber: z.string(),
  body: z.string(),
  segments: z.number().int(),
  encoding: z.string(),
  status: z.enum(messageStatuses),
  error: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type Message = z.infer<typeof messageSchema>;
export const conversationResponse = z.object({
  success: z.literal(true),
  data: z.array(messageSchema),
  customer: customerSchema,
});
export const sendTextBody = z.object({
  body: z
    .string()
    .trim()
    .min(1, waitlistMessages.messageRequired)
    .max(1600, waitlistMessages.textTooLong(1600)),
});
export const textMessageResponse = z.object({
  success: z.literal(true),
  data: messageSchema,
  message: z.string(),
});

// ---- templates and settings ----

export const messageTemplateKeySchema = z.enum(messageTemplateKeys);
export const messageTemplateSchema = z.object({
  key: messageTemplateKeySchema,
  /** Each template has an English and a Spanish version (issue 28); GET answers both, English first. */
  language: z.enum(customerLanguages),
  body: z.string(),
  isDefault: z.boolean(),
});
export type MessageTemplate = z.infer<typeof messageTemplateSchema>;
export const messageTemplatesResponse = z.object({
  success: z.literal(true),
  data: z.array(messageTemplateSchema),
});
export const updateTemplateBody = z.object({
  body: z
    .string()
    .trim()
    .min(1, waitlistMessages.templateRequired)
    .max(1600, waitlistMessages.textTooLong(1600)),
  /** The version saved (issue 28); English when not given. */
  language: languageField.default('en'),
});
export const messageTemplateResponse = z.object({
  success: z.literal(true),
  data: messageTemplateSchema,
  message: z.string(),
});

/**
 * "Plain letters" (issue 28): the business writes its Spanish texts without the accents GSM-7 lacks (á → a),
 * so they stay in the 160-character encoding.
 */
export const plainLettersBody = z.object({ plainSpanishLetters: z.boolean() });
export const plainLettersResponse = z.object({
  success: z.literal(true),
  data: z.object({ plainSpanishLetters: z.boolean() }),
  message: z.string(),
});

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz.length > 0;
  } catch {
    return false;
  }
}
export const timeZoneBody = z.object({
  timeZone: z.string().refine(isValidTimeZone, waitlistMessages.invalidTimeZone),
});
export const timeZoneResponse = z.object({
  success: z.literal(true),
  data: z.object({ timeZone: z.string() }),
  message: z.string(),
});
