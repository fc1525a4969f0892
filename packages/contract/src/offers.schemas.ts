import { z } from 'zod';
import { fieldMessages } from './field-messages.ts';
import { MAX_DAILY_OFFER_CAP, offerMessages, SEND_WINDOW_LIMITS } from './offers.messages.ts';

/**
 * Services, staff and the owner's offer rules (issue 26). An opening names a service (or a free length) and a
 * staff member; only the waitlist entries that fit are offered, in the order the offer policy chooses.
 */

const nameOf = (required: string) =>
  z.string({ error: required }).trim().min(1, required).max(100, fieldMessages.tooLong(100));
export const durationField = z
  .number({ error: offerMessages.invalidDuration })
  .int(offerMessages.invalidDuration)
  .min(5, offerMessages.invalidDuration)
  .max(24 * 60, offerMessages.invalidDuration);
export const priceField = z
  .number({ error: offerMessages.invalidPrice })
  .int(offerMessages.invalidPrice)
  .min(0, offerMessages.invalidPrice)
  .max(100_000_00, offerMessages.invalidPrice);

export const serviceSchema = z.object({
  id: z.string(),
  name: z.string(),
  durationMinutes: z.number().int(),
  priceCents: z.number().int().nullable(),
});
export type Service = z.infer<typeof serviceSchema>;
export const serviceBody = z.object({
  name: nameOf(offerMessages.serviceNameRequired),
  durationMinutes: durationField,
  priceCents: priceField.nullable().optional(),
});
export type ServiceBody = z.input<typeof serviceBody>;

export const staffSchema = z.object({ id: z.string(), name: z.string() });
export type StaffMember = z.infer<typeof staffSchema>;
export const staffBody = z.object({ name: nameOf(offerMessages.staffNameRequired) });
export type StaffBody = z.input<typeof staffBody>;

export const servicesResponse = z.object({ success: z.literal(true), data: z.array(serviceSchema) });
export const serviceResponse = z.object({
  success: z.literal(true),
  data: serviceSchema,
  message: z.string().optional(),
});
export const staffListResponse = z.object({ success: z.literal(true), data: z.array(staffSchema) });
export const staffResponse = z.object({
  success: z.literal(true),
  data: staffSchema,
  message: z.string().optional(),
});
export const deletedResponse = z.object({ success: z.literal(true), message: z.string() });

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, offerMessages.invalidSendWindow);
export const offerSettingsSchema = z.object({
  /** Texts the customer did not just ask for go out from… ('HH:MM', the customer's time zone). */
  sendFrom: z.string(),
  /** … until. */
  sendUntil: z.string(),
  /** Offers (and "it's been filled" texts) a customer may receive in one day. */
  dailyOfferCap: z.number().int(),
});
export type OfferSettings = z.infer<typeof offerSettingsSchema>;
export const offerSettingsBody = z
  .object({
    sendFrom: hhmm,
    sendUntil: hhmm,
    dailyOfferCap: z
      .number({ error: offerMessages.invalidDailyCap })
      .int(offerMessages.invalidDailyCap)
      .min(1, offerMessages.invalidDailyCap)
      .max(MAX_DAILY_OFFER_CAP, offerMessages.invalidDailyCap),
  })
  .refine(
    (b) =>
      b.sendFrom >= SEND_WINDOW_LIMITS.from &&
      b.sendUntil <= SEND_WINDOW_LIMITS.until &&
      b.sendFrom < b.sendUntil,
    { message: offerMessages.invalidSendWindow, path: ['sendFrom'] },
  );
export const offerSettingsResponse = z.object({
  success: z.literal(true),
  data: offerSettingsSchema,
  message: z.string().optional(),
});

/** Why a customer was not texted (yet): quiet hours in their time zone, or offered enough today. */
export const skipReasons = ['quiet_hours', 'daily_cap'] as const;
export type SkipReason = (typeof skipReasons)[number];

/** Why a waiting customer is not offered a slot: their service needs longer, another stylist, other times. */
export const leftOutReasons = ['service', 'staff', 'time_preference'] as const;
export type LeftOutReason = (typeof leftOutReasons)[number];

/** One customer of the plan an opening would follow (the preview) or follows. */
export const plannedOfferSchema = z.object({
  customerId: z.string(),
  name: z.string(),
  /** 1 = asked first. */
  rank: z.number().int(),
  wave: z.number().int(),
  /** Why they are asked when they are ("2nd: claimed 3 of 4 offers, replies in ~4 min"). */
  reason: z.string(),
  /** When their text goes out: now, or when quiet hours end; null for a later wave or when skipped. */
  sendAt: z.string().nullable(),
  skipReason: z.enum(skipReasons).nullable(),
  /** The customer's own time zone, whose quiet hours hold their text ("8:00 am their time"). */
  timeZone: z.string().optional(),
});
export type PlannedOffer = z.infer<typeof plannedOfferSchema>;

export const openingPreviewSchema = z.object({
  /** Waiting, opted-in customers who fit the slot (service, staff, time preferences). */
  fitting: z.number().int(),
  mode: z.enum(['auto', 'all', 'waves']),
  waveSize: z.number().int().nullable(),
  claimWindowMinutes: z.number().int().nullable(),
  waves: z.number().int(),
  /** Texted right away (or when quiet hours end) in the first wave. */
  firstWave: z.number().int(),
  /** Texts the plan expects to send before someone claims, "it's been filled" texts included. */
  expectedTexts: z.number(),
  /** The chance someone claims, as the policy estimates it (0..1). */
  expectedFill: z.number(),
  /** When the first text goes out (later than now when quiet hours hold everyone). */
  firstTextAt: z.string().nullable(),
  /** What the alert offers: the service, who does it and its price (a calendar's slot is checked here too). */
  slot: z
    .object({
      service: z.string(),
      staffName: z.string().nullable(),
      priceCents: z.number().int().nullable(),
    })
    .optional(),
  offers: z.array(plannedOfferSchema),
  /** Waiting customers who do not fit the slot, with why (issue 39). */
  leftOut: z
    .array(z.object({ customerId: z.string(), name: z.string(), reason: z.enum(leftOutReasons) }))
    .optional(),
});
export type OpeningPreview = z.infer<typeof openingPreviewSchema>;
export const openingPreviewResponse = z.object({ success: z.literal(true), data: openingPreviewSchema });
