/**
 * The offer policy's words for the owner (issue 26): services and staff, quiet hours, the daily cap, the
 * automatic plan and why each customer was asked when they were. The customers' words stay in the catalogue
 * (customer-words/).
 */

/** Texts the customer did not just ask for go out in this window of their day, at the widest. */
export const SEND_WINDOW_LIMITS = { from: '08:00', until: '21:00' } as const;
/** The default window (carrier and TCPA practice: 8 am to 8 pm, the customer's time). */
export const DEFAULT_SEND_WINDOW = { from: '08:00', until: '20:00' } as const;
export const DEFAULT_DAILY_OFFER_CAP = 3;
export const MAX_DAILY_OFFER_CAP = 20;
/** Services and staff members one business may have (issue 38): the join page lists them all. */
export const MAX_SERVICES = 100;
export const MAX_STAFF = 100;
/**
 * The service an opening names when nothing of the owner's does (a calendar cancellation no rule matched):
 * never the event's own title, which whoever can write to the owner's calendar chose (issue 38). Texts to
 * customers leave it out.
 */
export const UNNAMED_SERVICE = 'Appointment';

export const openingModeLabels = {
  auto: 'Automatic',
  all: 'Everyone at once',
  waves: 'Waves',
} as const;

export const offerMessages = {
  serviceNameRequired: 'Service name is required',
  serviceNameTaken: (name: string) => `You already have a service called ${name}.`,
  staffNameRequired: 'Name is required',
  staffNameTaken: (name: string) => `You already have a staff member called ${name}.`,
  invalidDuration: 'Length must be between 5 minutes and 24 hours',
  invalidPrice: 'Price must be between $0 and $100,000',
  serviceNotFound: 'Service not found',
  staffNotFound: 'Staff member not found',
  /** A CSV row naming a service or staff member the business does not have. */
  unknownService: (name: string) => `Unknown service: ${name}`,
  unknownStaff: (name: string) => `Unknown staff member: ${name}`,
  /** Issue 39: an unknown name close to one the business has is asked about, never taken silently. */
  didYouMean: (unknown: string, closest: string) => `${unknown}. Did you mean “${closest}”?`,
  serviceSaved: 'Service saved',
  serviceDeleted: 'Service deleted',
  staffSaved: 'Staff member saved',
  staffDeleted: 'Staff member deleted',
  tooManyServices: `You can have up to ${MAX_SERVICES} services. Delete one you no longer offer first.`,
  tooManyStaff: `You can have up to ${MAX_STAFF} staff members. Delete one first.`,
  invalidSendWindow:
    'Texts can go out between 8:00 am and 9:00 pm at the widest, and "from" must be before "until"',
  invalidDailyCap: `Offers a day must be a whole number from 1 to ${MAX_DAILY_OFFER_CAP}`,
  settingsSaved: 'Offer rules saved',
  serviceOrNameRequired: 'Service is required',
  claimReleased: 'The claim was released; the next customer in line is being offered the slot',
  nothingToRelease: 'This opening has no claim to release',
  releaseNoteTooLong: (max: number) => `Keep the added line to ${max} characters`,
  releaseNoteOneLine: 'The added line must be one line of text',
  /** Why an offer was not texted, on the opening page. */
  skipped: {
    quiet_hours: 'not texted: quiet hours',
    daily_cap: 'not texted: offered enough today',
  },
} as const;
