import { z } from 'zod';
import { earningsPeriodSchema } from './dashboard.schemas.ts';
import { fieldMessages } from './field-messages.ts';
import { offerMessages } from './offers.messages.ts';
import { durationField, priceField, skipReasons } from './offers.schemas.ts';
import { waitlistMessages } from './waitlist.messages.ts';

/** Openings (cancellation alerts) and the earnings they bring (issue 5, DESIGN.md §5); split from waitlist.schemas.ts. */

// ---- openings (cancellation alerts) ----

export const openingStatuses = ['open', 'filled', 'expired', 'closed'] as const;
export type OpeningStatus = (typeof openingStatuses)[number];
/** auto: the offer policy chooses waves, claim window and order (issue 26, the default). */
export const openingModes = ['auto', 'all', 'waves'] as const;
export type OpeningMode = (typeof openingModes)[number];
/** declined: the winner backed out by text; released: the owner released the winner (issue 39). */
export const offerStatuses = [
  'pending',
  'held',
  'sent',
  'won',
  'lost',
  'skipped',
  'declined',
  'released',
] as const;
export const offerOutcomes = [
  'claimed',
  'backed_out',
  'released',
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
    service: z
      .string()
      .trim()
      .min(1, offerMessages.serviceOrNameRequired)
      .max(200, fieldMessages.tooLong(200))
      .optional(),
    /** One of the business's services (issue 26): only entries waiting for it (or anything) are offered. */
    serviceId: z.string().uuid(offerMessages.serviceNotFound).nullable().optional(),
    /** The staff member of the slot: entries wanting someone else are not offered. */
    staffId: z.string().uuid(offerMessages.staffNotFound).nullable().optional(),
    priceCents: priceField.nullable().optional(),
    mode: z.enum(openingModes).default('auto'),
    waveSize: z
      .number()
      .int(waitlistMessages.waveSizeRange)
      .min(1, waitlistMessages.waveSizeRange)
      .max(100, waitlistMessages.waveSizeRange)
      .optional(),
    claimWindowMinutes: z
      .number()
      .int(waitlistMessages.claimWindowRange)
      .min(1, waitlistMessages.claimWindowRange)
      .max(24 * 60, waitlistMessages.claimWindowRange)
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
  data: openingSchema.extend({
    offers: z.array(offerSchema),
    /** The text a release would send the winner, in their language, before the owner's note (issue 39). */
    releaseText: z.string().nullable(),
  }),
  message: z.string().optional(),
});
export type OpeningDetail = z.infer<typeof openingResponse>['data'];

/** The most the owner may add to the text a released winner gets (issue 39): one short line. */
export const RELEASE_NOTE_MAX = 160;
/** POST /openings/:id/release: the owner's optional line, appended to the winner's text. */
export const releaseClaimBody = z.object({
  note: z
    .string()
    .trim()
    .max(RELEASE_NOTE_MAX, offerMessages.releaseNoteTooLong(RELEASE_NOTE_MAX))
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    .refine((note) => !/[\u0000-\u001f\u007f]/.test(note), offerMessages.releaseNoteOneLine)
    .optional(),
});
export type ReleaseClaimBody = z.infer<typeof releaseClaimBody>;

/** The text a released winner gets: the words in their language, then the owner's line if any. */
export const withReleaseNote = (text: string, note?: string | null) =>
  note?.trim() ? `${text}\n${note.trim()}` : text;

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
