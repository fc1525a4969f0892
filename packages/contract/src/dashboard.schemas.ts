import { z } from 'zod';
import { userSchema } from './user.schemas.ts';

/** The earnings dashboard (issue 14): a range in the business's time zone and its figures. */
export const dashboardRanges = ['week', 'month', '90d', 'custom'] as const;
export type DashboardRange = (typeof dashboardRanges)[number];

/** The dashboard's refusals of a range (issue 14), in the catalogue (issue 27). */
export const dashboardMessages = {
  badRange: 'range must be week, month, 90d or custom.',
  notADate: (field: string) => `${field} must be a date like 2026-03-08.`,
  notARealDate: (field: string) => `${field} is not a real date.`,
  onlyWithCustom: (field: string) => `${field} is only accepted with range=custom.`,
  requiredWithCustom: (field: string) => `${field} is required with range=custom.`,
  toBeforeFrom: 'to must be on or after from.',
  rangeTooLong: (days: number) => `to: the range can be at most ${days} days.`,
  enabledTrueOrFalse: 'enabled must be true or false.',
} as const;

const isoDate = (field: string) =>
  z
    .string({ error: dashboardMessages.notADate(field) })
    .regex(/^\d{4}-\d{2}-\d{2}$/, dashboardMessages.notADate(field))
    .refine((value) => {
      const [y, m, d] = value.split('-').map(Number);
      const date = new Date(Date.UTC(y!, m! - 1, d!));
      return date.getUTCFullYear() === y && date.getUTCMonth() === m! - 1 && date.getUTCDate() === d;
    }, dashboardMessages.notARealDate(field));

/** The longest custom range, in days. */
export const DASHBOARD_MAX_DAYS = 366;

const dayNumber = (value: string) => Date.parse(`${value}T00:00:00Z`) / 86_400_000;

export const earningsQuery = z
  .object({
    range: z.enum(dashboardRanges, { message: dashboardMessages.badRange }).optional(),
    /** YYYY-MM-DD, first day (inclusive), for range=custom. */
    from: isoDate('from').optional(),
    /** YYYY-MM-DD, last day (inclusive), for range=custom. */
    to: isoDate('to').optional(),
  })
  .superRefine((query, ctx) => {
    if (query.range !== 'custom') {
      if (query.from !== undefined)
        ctx.addIssue({ code: 'custom', path: ['from'], message: dashboardMessages.onlyWithCustom('from') });
      if (query.to !== undefined)
        ctx.addIssue({ code: 'custom', path: ['to'], message: dashboardMessages.onlyWithCustom('to') });
      return;
    }
    if (query.from === undefined)
      ctx.addIssue({ code: 'custom', path: ['from'], message: dashboardMessages.requiredWithCustom('from') });
    if (query.to === undefined)
      ctx.addIssue({ code: 'custom', path: ['to'], message: dashboardMessages.requiredWithCustom('to') });
    if (query.from && query.to) {
      const span = dayNumber(query.to) - dayNumber(query.from);
      if (span < 0) ctx.addIssue({ code: 'custom', path: ['to'], message: dashboardMessages.toBeforeFrom });
      else if (span + 1 > DASHBOARD_MAX_DAYS)
        ctx.addIssue({
          code: 'custom',
          path: ['to'],
          message: dashboardMessages.rangeTooLong(DASHBOARD_MAX_DAYS),
        });
    }
  });
export type EarningsQuery = z.infer<typeof earningsQuery>;

export const earningsWeekSchema = z.object({
  /** YYYY-MM-DD: the Monday that starts the week, in the business's time zone. */
  weekStart: z.string(),
  revenueRecoveredCents: z.number().int(),
  openingsOpened: z.number().int(),
  openingsFilled: z.number().int(),
  /** 0..1: filled / decided (filled, expired or closed; an opening still open counts for neither); null when none was decided. */
  fillRate: z.number().nullable(),
});
export type EarningsWeek = z.infer<typeof earningsWeekSchema>;

/** The figures for one range. Openings count by when their alert went out (created), within the range. */
export const earningsPeriodSchema = z.object({
  range: z.enum(dashboardRanges),
  /** YYYY-MM-DD, first day of the range (inclusive), in timeZone. */
  from: z.string(),
  /** YYYY-MM-DD, last day of the range (inclusive), in timeZone. */
  to: z.string(),
  timeZone: z.string(),
  /** Sum of the prices of the filled openings, cents. */
  revenueRecoveredCents: z.number().int(),
  openingsOpened: z.number().int(),
  openingsFilled: z.number().int(),
  /** Openings no longer open (filled, expired or closed): the fill rate's base. */
  openingsDecided: z.number().int(),
  /** 0..1: filled / decided; null when none was decided yet. */
  fillRate: z.number().nullable(),
  /** Median minutes from the alert to the claim of the filled openings; null when none was filled. */
  medianMinutesToClaim: z.number().nullable(),
  /** Texts handed to the provider in the range. */
  textsSent: z.number().int(),
  /** Of those, confirmed delivered. */
  textsDelivered: z.number().int(),
  /** The segments those texts took: what a plan's texts included counts (issue 39). */
  segmentsSent: z.number().int(),
  /** Texts offering a slot sent in the range, by the language of the customer who got each (issue 28); the web
   * calls them texts, keeping "alerts" for the openings the daily cap counts (issue 39). */
  alertsByLanguage: z.object({ en: z.number().int(), es: z.number().int() }),
  /** Whether any customer on the waitlist (not removed) reads Spanish: the dashboard then counts alerts per language. */
  hasSpanishCustomers: z.boolean(),
  /** Customers who opted out (STOP) in the range. */
  optOuts: z.number().int(),
  /** Customers waiting now (not texted an offer, booked, removed or opted out). */
  waitlistSize: z.number().int(),
  /** One entry per week (Monday start, business zone) that overlaps the range, oldest first. */
  weeks: z.array(earningsWeekSchema),
});
export type EarningsPeriod = z.infer<typeof earningsPeriodSchema>;

/** PUT /dashboard/weekly-summary: the Monday summary email on or off (issue 14). */
export const weeklySummaryBody = z.object({
  enabled: z.boolean({ message: dashboardMessages.enabledTrueOrFalse }),
});
export type WeeklySummaryBody = z.infer<typeof weeklySummaryBody>;
export const weeklySummaryResponse = z.object({
  success: z.literal(true),
  data: userSchema,
  message: z.string(),
});

/** The weekly summary email's words (issue 14). */
export const weeklySummaryMessages = {
  turnedOn: 'The weekly summary email is on. It arrives Monday morning.',
  turnedOff: 'The weekly summary email is off.',
  saveFailed: 'The weekly summary setting could not be saved. Please try again.',
  /** "Your waitlist recovered $170.00 this week" */
  subject: (money: string) => `Your waitlist recovered ${money} this week`,
} as const;
