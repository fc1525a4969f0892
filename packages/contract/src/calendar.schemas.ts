import { z } from 'zod';
import {
  CALENDAR_GRACE_MINUTES,
  CALENDAR_HORIZON_DAYS,
  CALENDAR_KINDS,
  CALENDAR_MODES,
  CALENDAR_SKIP_REASONS,
  MAX_CALENDAR_EXCLUDES,
  MAX_CALENDAR_RULES,
  calendarMessages as m,
} from './calendar.messages.ts';
import { fieldMessages } from './field-messages.ts';
import { priceField } from './offers.schemas.ts';

/**
 * Connected calendars (issue 29): the API between the Account page's Calendar card, the day view, the inbox's
 * cancellation cards and the server. Credentials go in (a CalDAV app password) and never come back out.
 */

/** A rule mapping an event title to the opening it becomes ("Cut – Priya": service Cut, staff Priya). */
export const calendarRuleSchema = z.object({
  /** Words the title contains, compared without case or accents. */
  contains: z
    .string({ error: m.ruleTextRequired })
    .trim()
    .min(1, m.ruleTextRequired)
    .max(100, fieldMessages.tooLong(100)),
  serviceId: z.string().nullable().optional(),
  staffId: z.string().nullable().optional(),
  priceCents: priceField.nullable().optional(),
});
export type CalendarRule = z.infer<typeof calendarRuleSchema>;

const excludeWord = z.string().trim().min(1, m.ruleTextRequired).max(100, fieldMessages.tooLong(100));

export const calendarConnectionSchema = z.object({
  id: z.string(),
  kind: z.enum(CALENDAR_KINDS),
  /** The calendar's own name ("Work", "Salon"), or the feed's address for ICS. */
  name: z.string(),
  /** Where it is read from (never with a password in it); null for Google and Microsoft. */
  url: z.string().nullable(),
  /** The account it signs in as (CalDAV username, Google or Microsoft email); null for ICS and local. */
  account: z.string().nullable(),
  mode: z.enum(CALENDAR_MODES),
  horizonDays: z.number().int(),
  graceMinutes: z.number().int(),
  exclude: z.array(z.string()),
  rules: z.array(calendarRuleSchema),
  /** Whether claimed slots are booked back into it (false for an ICS feed: read-only). */
  writesBookings: z.boolean(),
  /** Whether the provider pushes its changes (a Google channel or a Graph subscription is open): read at once. */
  liveUpdates: z.boolean(),
  status: z.enum(['ok', 'error']),
  lastSyncedAt: z.string().nullable(),
  /** The last sync's failure, in words the owner can act on. */
  lastError: z.string().nullable(),
  /** Failed reads in a row: each doubles the wait before the next read, up to an hour (issue 38). */
  failures: z.number().int(),
  /** When it is read next. */
  nextSyncAt: z.string(),
  /** Events the last read left out, each with the owner's words for why (issue 38). */
  skipped: z.array(
    z.object({ title: z.string(), reason: z.enum(CALENDAR_SKIP_REASONS), message: z.string() }),
  ),
  createdAt: z.string(),
});
export type CalendarConnection = z.infer<typeof calendarConnectionSchema>;

const httpUrl = z
  .string({ error: m.urlRequired })
  .trim()
  .min(1, m.urlRequired)
  .max(2000, fieldMessages.tooLong(2000))
  // A full address with a host; the server checks further where it points before it fetches it.
  .regex(/^(https?|webcal):\/\/[^\s/?#@]+(?:[/?#][^\s]*)?$/i, m.invalidUrl);

/** POST /calendar/connections: what connecting needs, per kind (Google and Microsoft start with OAuth instead). */
export const calendarConnectBody = z.discriminatedUnion(
  'kind',
  [
    z.object({
      kind: z.literal('caldav'),
      url: httpUrl,
      username: z
        .string({ error: m.usernameRequired })
        .trim()
        .min(1, m.usernameRequired)
        .max(200, fieldMessages.tooLong(200)),
      password: z
        .string({ error: m.passwordRequired })
        .min(1, m.passwordRequired)
        .max(200, fieldMessages.tooLong(200)),
    }),
    z.object({ kind: z.literal('ics'), url: httpUrl }),
    z.object({ kind: z.literal('local') }),
  ],
  { error: m.kindRequired },
);
export type CalendarConnectBody = z.input<typeof calendarConnectBody>;

/** PATCH /calendar/connections/:id: any of the connection's settings. */
export const calendarSettingsBody = z
  .object({
    mode: z.enum(CALENDAR_MODES, { error: m.invalidMode }),
    horizonDays: z
      .number({ error: m.invalidHorizon })
      .int(m.invalidHorizon)
      .min(CALENDAR_HORIZON_DAYS.min, m.invalidHorizon)
      .max(CALENDAR_HORIZON_DAYS.max, m.invalidHorizon),
    graceMinutes: z
      .number({ error: m.invalidGrace })
      .int(m.invalidGrace)
      .min(CALENDAR_GRACE_MINUTES.min, m.invalidGrace)
      .max(CALENDAR_GRACE_MINUTES.max, m.invalidGrace),
    exclude: z.array(excludeWord).max(MAX_CALENDAR_EXCLUDES, m.tooManyExcludes),
    rules: z.array(calendarRuleSchema).max(MAX_CALENDAR_RULES, m.tooManyRules),
  })
  .partial();
export type CalendarSettingsBody = z.input<typeof calendarSettingsBody>;

export const CALENDAR_PROPOSAL_STATUSES = [
  'proposed',
  'scheduled',
  'opened',
  'dismissed',
  'expired',
] as const;

/** A cancellation found in a connected calendar: the opening it would become, and what happened to it. */
export const calendarProposalSchema = z.object({
  id: z.string(),
  connectionId: z.string(),
  /** The cancelled event's title as the calendar had it ("Cut – Priya"). */
  title: z.string(),
  startsAt: z.string(),
  durationMinutes: z.number().int(),
  /** What the owner's rules made of the title (null: no rule matched). */
  serviceId: z.string().nullable(),
  staffId: z.string().nullable(),
  priceCents: z.number().int().nullable(),
  /** deleted, cancelled, or its attendee left. */
  reason: z.enum(['deleted', 'cancelled', 'attendee_left']),
  status: z.enum(CALENDAR_PROPOSAL_STATUSES),
  /** Automatic mode: when the slot opens unless the owner stops it. */
  opensAt: z.string().nullable(),
  openingId: z.string().nullable(),
  createdAt: z.string(),
});
export type CalendarProposal = z.infer<typeof calendarProposalSchema>;

/** GET /calendar/day?date=YYYY-MM-DD&days=1|7: the owner's day (or week) at a glance. */
export const calendarDayQuery = z.object({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, m.invalidDate),
  days: z.coerce
    .number({ error: m.invalidDate })
    .int(m.invalidDate)
    .min(1, m.invalidDate)
    .max(7, m.invalidDate)
    .optional(),
});
export const calendarDaySchema = z.object({
  /** The first day shown and the business's time zone the days are cut in. */
  date: z.string(),
  days: z.number().int(),
  timeZone: z.string(),
  /** The connected calendars' events (bookings we wrote included, marked `ours`). */
  events: z.array(
    z.object({
      connectionId: z.string(),
      title: z.string(),
      startsAt: z.string(),
      endsAt: z.string(),
      ours: z.boolean(),
    }),
  ),
  /** The openings in those days, with who claimed them. */
  openings: z.array(
    z.object({
      id: z.string(),
      startsAt: z.string(),
      durationMinutes: z.number().int(),
      service: z.string(),
      status: z.string(),
      claimedBy: z.string().nullable(),
    }),
  ),
});
export type CalendarDay = z.infer<typeof calendarDaySchema>;

export const calendarConnectionsResponse = z.object({
  success: z.literal(true),
  data: z.array(calendarConnectionSchema),
  /** The kinds this server can connect (Google and Microsoft only when their apps are configured, local only on this machine). */
  available: z.array(z.enum(CALENDAR_KINDS)),
});
export const calendarConnectionResponse = z.object({
  success: z.literal(true),
  data: calendarConnectionSchema,
  message: z.string().optional(),
});
export const calendarProposalsResponse = z.object({
  success: z.literal(true),
  data: z.array(calendarProposalSchema),
  /** The business's time zone, which the cards' times are written in ("3:30 pm"). */
  timeZone: z.string(),
});
export const calendarProposalResponse = z.object({
  success: z.literal(true),
  data: calendarProposalSchema,
  message: z.string().optional(),
});
export const calendarDayResponse = z.object({ success: z.literal(true), data: calendarDaySchema });
/** POST /calendar/oauth/google/start: where to send the owner (Google's consent screen). */
export const calendarOAuthStartResponse = z.object({ success: z.literal(true), url: z.string() });

/**
 * GET /calendar/oauth/pending/:id (issue 38): the account a Google or Microsoft consent came back with, held
 * until the owner confirms it (POST …/confirm answers calendarConnectionResponse) or cancels it (DELETE).
 */
export const calendarPendingConnectionSchema = z.object({
  id: z.string(),
  kind: z.enum(['google', 'microsoft']),
  /** The account signed in as (an email), shown so the owner sees whose calendar it is. */
  account: z.string().nullable(),
  /** The calendar's own name ("Salon"). */
  name: z.string(),
  /** After this the consent is forgotten and the owner connects again. */
  expiresAt: z.string(),
});
export type CalendarPendingConnection = z.infer<typeof calendarPendingConnectionSchema>;
export const calendarPendingConnectionResponse = z.object({
  success: z.literal(true),
  data: calendarPendingConnectionSchema,
});
