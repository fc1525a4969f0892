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
} as const;
