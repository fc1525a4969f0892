/**
 * Connected calendars (issue 29): the owner's words. A cancellation in the owner's calendar becomes a proposed
 * opening ("ask me") or opens by itself after a grace period ("automatic"); a claimed slot is booked back.
 */

export const CALENDAR_KINDS = ['google', 'microsoft', 'caldav', 'ics', 'local'] as const;
export type CalendarKind = (typeof CALENDAR_KINDS)[number];

export const calendarKindLabels: Record<CalendarKind, string> = {
  google: 'Google Calendar',
  microsoft: 'Outlook / Microsoft 365',
  caldav: 'CalDAV (iCloud, Fastmail, Nextcloud…)',
  ics: 'Calendar feed (ICS link)',
  local: 'Local calendar (this machine)',
};

export const CALENDAR_MODES = ['ask', 'auto'] as const;
export type CalendarMode = (typeof CALENDAR_MODES)[number];
export const calendarModeLabels: Record<CalendarMode, string> = {
  ask: 'Ask me first',
  auto: 'Open the slot automatically',
};

/** How far ahead a cancellation opens a slot, in days: default and limits. */
export const CALENDAR_HORIZON_DAYS = { default: 7, min: 1, max: 30 } as const;
/** Automatic mode waits this long before opening, so the owner can stop it: default and limits, in minutes. */
export const CALENDAR_GRACE_MINUTES = { default: 5, min: 0, max: 60 } as const;
/** Event titles that never open a slot unless the owner changes the list. */
export const DEFAULT_CALENDAR_EXCLUDES = ['Lunch', 'Blocked', 'Break', 'Busy'] as const;
export const MAX_CALENDAR_RULES = 50;
export const MAX_CALENDAR_EXCLUDES = 50;
export const MAX_CALENDAR_CONNECTIONS = 5;
/** The most one answer of an owner's calendar may hold, after decompression (issue 38). */
export const MAX_CALENDAR_ANSWER_MB = 5;

/**
 * What one read of an owner's calendar may cost (issue 38): the occurrences one repeating event yields, the
 * events one feed may hold, and the instances kept per connection. Past each, the rest is skipped and the
 * owner is told which event and why (`calendarSkipMessages`).
 */
export const CALENDAR_READ_LIMITS = {
  occurrencesPerEvent: 500,
  eventsPerFeed: 20_000,
  rowsPerConnection: 2_000,
} as const;

/** Why an event of the owner's calendar was left out of a read. */
export const CALENDAR_SKIP_REASONS = [
  'repeats-too-often',
  'too-many-occurrences',
  'starts-too-early',
  'too-slow',
  'too-many-events',
  'too-many-rows',
] as const;
export type CalendarSkipReason = (typeof CALENDAR_SKIP_REASONS)[number];

const quoted = (title: string) => (title ? `“${title}”` : 'An event with no title');
/** The owner's words for a skipped event (the title is the owner's own calendar's, shown to the owner only). */
export const calendarSkipMessages: Record<CalendarSkipReason, (title: string) => string> = {
  'repeats-too-often': (title) =>
    `${quoted(title)} repeats every second or minute, which no appointment does: it is not watched.`,
  'too-many-occurrences': (title) =>
    `${quoted(title)} repeats more than ${CALENDAR_READ_LIMITS.occurrencesPerEvent} times in the weeks we watch: only the first ${CALENDAR_READ_LIMITS.occurrencesPerEvent} are watched.`,
  'starts-too-early': (title) =>
    `${quoted(title)} started so long ago, repeating so often, that its repeats could not be worked out: it is not watched.`,
  'too-slow': (title) =>
    `${quoted(title)} has a repeat rule that took too long to work out: it is not watched. Simplify its repeat in your calendar.`,
  'too-many-events': () =>
    `The calendar holds more than ${CALENDAR_READ_LIMITS.eventsPerFeed.toLocaleString('en-US')} events: the ones past that are not watched.`,
  'too-many-rows': () =>
    `The calendar has more than ${CALENDAR_READ_LIMITS.rowsPerConnection.toLocaleString('en-US')} appointments in the weeks we watch: only the soonest ${CALENDAR_READ_LIMITS.rowsPerConnection.toLocaleString('en-US')} are watched.`,
};

export const calendarMessages = {
  kindRequired: 'Choose a kind of calendar',
  urlRequired: 'Please enter the calendar’s address',
  invalidUrl: 'Please enter a full address starting with https://',
  usernameRequired: 'Please enter your username',
  passwordRequired: 'Please enter the app-specific password',
  /** The server refused the address: not public (a private network, this machine). */
  urlNotAllowed: 'That address is not reachable from the internet. Use the calendar’s public link.',
  signInFailed: 'We could not sign in to that calendar. Check the username and the app-specific password.',
  noCalendars: 'We signed in, but found no calendar there. Check the address.',
  feedUnreadable: 'We could not read a calendar at that link. Check that it is the ICS (iCal) link.',
  unreachable: 'We could not reach that calendar. Check the address and try again.',
  alreadyConnected: 'That calendar is already connected.',
  tooMany: `You can connect up to ${MAX_CALENDAR_CONNECTIONS} calendars.`,
  notConfigured: (kind: string) => `${kind} is not set up on this server.`,
  oauthExpired: 'That sign-in link has expired. Please connect the calendar again.',
  oauthFailed: 'The calendar was not connected. Please try again.',
  /** A push to /calendar/push/* that does not name a channel of ours with its secret. */
  pushRefused: 'This notification is not for a calendar connected here.',
  connected: 'Calendar connected',
  disconnected: 'Calendar disconnected',
  settingsSaved: 'Calendar settings saved',
  synced: 'Calendar checked',
  connectionNotFound: 'Calendar not found',
  invalidMode: 'Choose “Ask me first” or “Open the slot automatically”',
  invalidHorizon: `Look ahead must be a whole number of days from ${CALENDAR_HORIZON_DAYS.min} to ${CALENDAR_HORIZON_DAYS.max}`,
  invalidGrace: `The wait must be a whole number of minutes from ${CALENDAR_GRACE_MINUTES.min} to ${CALENDAR_GRACE_MINUTES.max}`,
  ruleTextRequired: 'Please enter the words the event title contains',
  tooManyRules: `At most ${MAX_CALENDAR_RULES} rules`,
  tooManyExcludes: `At most ${MAX_CALENDAR_EXCLUDES} words`,
  proposalNotFound: 'That cancellation is no longer waiting',
  proposalOpened: 'Slot opened: the waitlist is being texted',
  proposalDismissed: 'Dismissed: no texts sent',
  proposalStarted: 'That slot has already started',
  invalidDate: 'Please choose a valid date',
  /** The inbox card and the push: "3:30 pm Cut cancelled — text the waitlist?" */
  proposalTitle: (time: string, title: string) => `${time} ${title} cancelled — text the waitlist?`,
  /** The ICS note: the app cannot write there. */
  bookByHand: 'This calendar is read-only here: book claimed slots into it by hand.',
  /** The calendar was read, but its changes could not be saved (issue 38: a failure always shows). */
  syncFailed: 'We read this calendar but could not save its changes. We will try again shortly.',
  /** Reading the calendar was stopped at its time limit (issue 38). */
  readTooSlow:
    'Reading this calendar took too long, so it was stopped. Check the calendar for events with unusual repeat rules.',
  /** After failures in a row the calendar is read less often (issue 38). */
  backingOff: (failures: number, time: string) =>
    `It failed ${failures} times in a row, so it is read less often: next try at ${time} (or use Check now).`,
  /** One answer of the calendar was larger than we read (issue 38). */
  answerTooLarge: `That calendar answered with more than ${MAX_CALENDAR_ANSWER_MB} MB at once, more than we read. Check that the address is your calendar’s own, or connect a smaller calendar.`,
  /** The calendar sent us on to another server, where the password would have gone (issue 38). */
  redirectRefused:
    'That calendar sent us on to another server, so we stopped before sending your password there. Enter the address of the server that keeps the calendar.',
  /** The calendar sent us from https:// down to http:// (issue 38). */
  insecureRedirect:
    'That calendar sent us from a secure https:// address to an unencrypted http:// one, so we stopped. Use the calendar’s https:// address.',
  /** The consent came back to a browser that did not start it (issue 38: a consent link sent to someone else). */
  oauthOtherBrowser:
    'This sign-in was started in another browser, so nothing was connected. Please connect the calendar again from here.',
  /** Google or Microsoft signed in: the owner says yes before the calendar is connected (issue 38). */
  oauthConfirm: (account: string, name: string) => `Connect ${account} (${name}) to your business?`,
  oauthPendingNotFound: 'That calendar is no longer waiting to be connected. Please connect it again.',
  oauthCancelled: 'Calendar not connected',
} as const;
