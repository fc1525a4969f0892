import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import { earningsPeriodSchema } from './dashboard.schemas.ts';
import { offerMessages } from './offers.messages.ts';
import { durationField, priceField, skipReasons } from './offers.schemas.ts';
import { messageTemplateKeys, waitlistMessages } from './waitlist.messages.ts';

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
    days: z.array(z.number().int().min(0).max(6)).min(1),
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
  vip: z.boolean(),
  pinned: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Customer = z.infer<typeof customerSchema>;

const nameField = z.string().trim().min(1, waitlistMessages.nameRequired).max(100);
const phoneField = z
  .string()
  .trim()
  .min(1, waitlistMessages.phoneRequired)
  .refine((value) => normalizePhone(value) !== null, waitlistMessages.invalidPhone);

/** What an entry waits for and how the offer policy treats it (issue 26); all optional. */
const entryFields = {
  serviceId: z.string().uuid(offerMessages.serviceNotFound).nullable().optional(),
  staffId: z.string().uuid(offerMessages.staffNotFound).nullable().optional(),
  timeZone: z.string().refine(isValidTimeZone, waitlistMessages.invalidTimeZone).nullable().optional(),
  vip: z.boolean().optional(),
  pinned: z.boolean().optional(),
};

export const createCustomerBody = z.object({
  name: nameField,
  /** Any common format; stored as E.164. */
  phone: phoneField,
  notes: z.string().max(1000).optional(),
  consentMethod: z.enum(consentMethods, { error: waitlistMessages.consentRequired }),
  preferences: z.array(timePreferenceSchema).max(14).optional(),
  ...entryFields,
});
export type CreateCustomerBody = z.infer<typeof createCustomerBody>;

export const updateCustomerBody = z.object({
  name: nameField.optional(),
  phone: phoneField.optional(),
  notes: z.string().max(1000).optional(),
  consentMethod: z.enum(consentMethods).optional(),
  preferences: z.array(timePreferenceSchema).max(14).optional(),
  status: z.enum(['waiting', 'offered', 'booked']).optional(),
  ...entryFields,
});
export type UpdateCustomerBody = z.infer<typeof updateCustomerBody>;

export const reorderBody = z.object({ ids: z.array(z.string().uuid()).min(1) });
export const csvBody = z.object({ csv: z.string().max(500_000) });

export const waitlistListQuery = z.object({
  search: z.string().optional(),
  status: z.enum(customerStatuses).optional(),
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
export const sendTextBody = z.object({ body: z.string().trim().min(1, 'Message is required').max(1600) });
export const textMessageResponse = z.object({
  success: z.literal(true),
  data: messageSchema,
  message: z.string(),
});

// ---- templates and settings ----

export const messageTemplateKeySchema = z.enum(messageTemplateKeys);
export const messageTemplateSchema = z.object({
  key: messageTemplateKeySchema,
  body: z.string(),
  isDefault: z.boolean(),
});
export type MessageTemplate = z.infer<typeof messageTemplateSchema>;
export const messageTemplatesResponse = z.object({
  success: z.literal(true),
  data: z.array(messageTemplateSchema),
});
export const updateTemplateBody = z.object({
  body: z.string().trim().min(1, 'Template is required').max(1600),
});
export const messageTemplateResponse = z.object({
  success: z.literal(true),
  data: messageTemplateSchema,
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

// ---- openings (cancellation alerts) ----

export const openingStatuses = ['open', 'filled', 'expired', 'closed'] as const;
export type OpeningStatus = (typeof openingStatuses)[number];
/** auto: the offer policy chooses waves, claim window and order (issue 26, the default). */
export const openingModes = ['auto', 'all', 'waves'] as const;
export type OpeningMode = (typeof openingModes)[number];
export const offerStatuses = ['pending', 'held', 'sent', 'won', 'lost', 'skipped', 'declined'] as const;
export const offerOutcomes = [
  'claimed',
  'backed_out',
  'waiting_quiet_hours',
  'not_texted_quiet_hours',
  'not_texted_daily_cap',
  'told_filled',
  'opted_out',
  'no_answer',
  'texted',
  'next_wave',
  'not_texted',
] as const;
export type OfferOutcome = (typeof offerOutcomes)[number];

export const createOpeningBody = z
  .object({
    /** ISO 8601 with an offset, or local 'YYYY-MM-DDTHH:mm' read in the business's time zone. */
    startsAt: z.string().min(1, waitlistMessages.invalidStartsAt),
    durationMinutes: durationField,
    /** The service's name; taken from `serviceId` when that is given and this is not. */
    service: z.string().trim().min(1, offerMessages.serviceOrNameRequired).max(200).optional(),
    /** One of the business's services (issue 26): only entries waiting for it (or anything) are offered. */
    serviceId: z.string().uuid(offerMessages.serviceNotFound).nullable().optional(),
    /** The staff member of the slot: entries wanting someone else are not offered. */
    staffId: z.string().uuid(offerMessages.staffNotFound).nullable().optional(),
    priceCents: priceField.nullable().optional(),
    mode: z.enum(openingModes).default('auto'),
    waveSize: z.number().int().min(1).max(100).optional(),
    claimWindowMinutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .optional(),
  })
  .refine((b) => Boolean(b.service) || Boolean(b.serviceId), {
    message: offerMessages.serviceOrNameRequired,
    path: ['service'],
  })
  .refine((b) => b.mode !== 'waves' || (b.waveSize !== undefined && b.claimWindowMinutes !== undefined), {
    message: waitlistMessages.waveSizeRequired,
    path: ['waveSize'],
  });
export type CreateOpeningBody = z.input<typeof createOpeningBody>;

export const openingStatsSchema = z.object({
  /** Alert texts handed to the provider (or delivered). */
  sent: z.number().int(),
  delivered: z.number().int(),
  /** Inbound texts from offered customers since the alert. */
  replies: z.number().int(),
  /** Customers offered so far (all waves). */
  offered: z.number().int(),
});
export const openingSchema = z.object({
  id: z.string(),
  startsAt: z.string(),
  durationMinutes: z.number().int(),
  service: z.string(),
  priceCents: z.number().int().nullable(),
  serviceId: z.string().nullable(),
  staffId: z.string().nullable(),
  /** The staff member's name, for the list. */
  staffName: z.string().nullable(),
  status: z.enum(openingStatuses),
  mode: z.enum(openingModes),
  waveSize: z.number().int().nullable(),
  claimWindowMinutes: z.number().int().nullable(),
  nextWaveAt: z.string().nullable(),
  currentWave: z.number().int(),
  winner: z.object({ id: z.string(), name: z.string(), phone: z.string() }).nullable(),
  filledAt: z.string().nullable(),
  createdAt: z.string(),
  localDate: z.string(),
  stats: openingStatsSchema,
});
export type Opening = z.infer<typeof openingSchema>;

export const offerSchema = z.object({
  customerId: z.string(),
  name: z.string(),
  phone: z.string(),
  wave: z.number().int(),
  sentAt: z.string().nullable(),
  status: z.enum(offerStatuses),
  /**
   * What happened to this customer (issue 15): claimed; told it was filled; opted out (STOP); no answer
   * (texted, the slot expired or was closed); texted (the slot is still open); next wave; not texted.
   */
  outcome: z.enum(offerOutcomes),
  /** When they were told the slot is taken, if they were. */
  toldAt: z.string().nullable(),
  /** The customer replied STOP (to this alert or since): shown as opted out, never "filled by another". */
  optedOut: z.boolean(),
  /** The place the offer policy gave them (1 = first) and why (issue 26). */
  rank: z.number().int(),
  reason: z.string(),
  /** A held text goes out then (quiet hours). */
  sendAt: z.string().nullable(),
  skipReason: z.enum(skipReasons).nullable(),
  /** The customer's newest question since their alert (not a YES, STOP or HELP): "Asked: what time?" (issue 27). */
  question: z.object({ body: z.string(), at: z.string() }).nullable(),
});
export type Offer = z.infer<typeof offerSchema>;

export const alertsTodaySchema = z.object({
  used: z.number().int(),
  /** null = unlimited. */
  limit: z.number().int().nullable(),
  /** ISO: the next midnight in the business's time zone. */
  resetsAt: z.string(),
});
export type AlertsToday = z.infer<typeof alertsTodaySchema>;

export const openingsListResponse = z.object({
  success: z.literal(true),
  data: z.array(openingSchema),
  alertsToday: alertsTodaySchema,
  timeZone: z.string(),
  readOnly: z.boolean(),
  readOnlyReason: z.string().nullable(),
});
export const openingResponse = z.object({
  success: z.literal(true),
  data: openingSchema.extend({ offers: z.array(offerSchema) }),
  message: z.string().optional(),
});
export type OpeningDetail = z.infer<typeof openingResponse>['data'];

export const earningsSchema = z.object({
  revenueRecoveredCents: z.number().int(),
  alertsSent: z.number().int(),
  /** 0..1: filled openings / openings that are no longer open (or all when none closed yet). */
  fillRate: z.number(),
  avgTimeToFillMinutes: z.number().nullable(),
  openingsFilled: z.number().int(),
  /** The figures for the requested range (default: this week), in the business's time zone (issue 14). */
  period: earningsPeriodSchema,
});
export type Earnings = z.infer<typeof earningsSchema>;
export const earningsResponse = z.object({ success: z.literal(true), data: earningsSchema });
