import { z } from 'zod';
import { normalizePhone } from './waitlist.schemas.ts';

/**
 * Customers join a waitlist themselves (issue 15): a public page per business, /join/{slug}, with a QR code
 * and a printable poster; a confirmation text makes it a double opt-in, and texting JOIN starts the same.
 */
export const joinMessages = {
  nameRequired: 'Please enter your name',
  phoneRequired: 'Please enter your mobile number',
  invalidPhone: 'Please enter a valid mobile number, for example (555) 123-4567',
  consentRequired: 'Please tick the box to agree to texts',
  notFound: 'This waitlist link is not valid. Ask the business for its current link.',
  full: (business: string) =>
    `The waitlist at ${business} is full right now. Please try again later, or call the business.`,
  cannotText: (business: string) =>
    `${business} cannot take sign-ups by text right now. Please call the business to join.`,
  checkYourTexts: (business: string) =>
    `Check your texts: reply YES to the message from ${business} to join the waitlist.`,
  tooMany: 'Too many sign-ups from here. Please try again later.',
  /** A number the business may not text (another country, premium rate, toll-free…: issue 24). */
  notTextable:
    'Please enter a mobile number from this business’s country. Toll-free, premium-rate and satellite numbers cannot get texts.',
  /** The business has as many unanswered confirmation texts out as it may have (issue 24). */
  busy: (business: string) =>
    `${business} has many sign-ups waiting for a reply right now. Please try again tomorrow, or call the business.`,
  /** Several sign-ups came from this connection: the page asks for a quick check that a person is there. */
  proofRequired: 'Please tick “I’m not a robot”, then send again.',
  proofFailed: 'The check that you are a person did not work. Please tick the box again, then send.',
  /** The words of the page's "I'm not a robot" check (issue 24): our own, given to the ALTCHA widget. */
  personCheck: {
    loading: 'Loading a quick check…',
    loadFailed: 'The check could not be loaded. Please check your connection and reload the page.',
    label: 'I’m not a robot',
    verifying: 'Checking…',
    waitAlert: 'Checking… please wait a moment.',
    verified: 'Done: you can send now',
    verificationRequired: 'Please tick “I’m not a robot” first.',
    error: 'The check did not work. Please tick the box again.',
    expired: 'The check ran out of time. Please tick the box again.',
  },
  /** The consent wording shown beside the checkbox (and stored with the request). */
  consent: (business: string) =>
    `I agree to receive texts from ${business} about openings on its waitlist. Message frequency varies. Msg & data rates may apply. Reply STOP to opt out, HELP for help.`,
  /** The confirmation text (double opt-in). */
  confirmText: (business: string) =>
    `${business}: Reply YES to join the waitlist at ${business}. Reply STOP to opt out.`,
  welcomeText: (business: string) =>
    `${business}: You're on the waitlist! We'll text you when a slot opens. Reply STOP to opt out.`,
  fullText: (business: string) =>
    `${business}: Sorry, the waitlist is full right now. Please try again later.`,
  stoppedText: (business: string) =>
    `${business}: You will not be added to the waitlist and will get no more texts. Reply JOIN to start again.`,
  /** What the join request stores as consent when it came by text. */
  textConsent: 'Texted JOIN to the business number',
} as const;

export const joinBody = z.object({
  name: z.string({ error: joinMessages.nameRequired }).trim().min(1, joinMessages.nameRequired).max(100),
  phone: z
    .string({ error: joinMessages.phoneRequired })
    .trim()
    .min(1, joinMessages.phoneRequired)
    .max(40)
    .refine((value) => normalizePhone(value) !== null, joinMessages.invalidPhone),
  consent: z.literal(true, { error: joinMessages.consentRequired }),
  /** A honeypot: people never see or fill it; a bot that fills it is answered as if fine, and nothing is kept. */
  website: z.string().max(200).optional(),
  /**
   * A solved ALTCHA proof of work (base64 JSON, from GET /join/{slug}/challenge), asked for once one address
   * has sent a few sign-ups in an hour (issue 24); each one is taken once.
   */
  altcha: z.string().max(8000).optional(),
});
export type JoinBody = z.input<typeof joinBody>;

export const joinPageResponse = z.object({
  success: z.literal(true),
  data: z.object({
    businessName: z.string(),
    consentText: z.string(),
    /** The waitlist is at its plan's cap: the page says so kindly instead of showing the form. */
    full: z.boolean(),
    /** This address must send a solved proof of work with its next sign-up (issue 24). */
    proofRequired: z.boolean(),
  }),
});

/**
 * GET /join/{slug}/challenge: an ALTCHA proof-of-work challenge (altcha-lib v2's format, signed by the
 * server), as the widget fetches it.
 */
export const joinChallengeResponse = z.looseObject({
  parameters: z.looseObject({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number(),
    keyLength: z.number(),
    keyPrefix: z.string(),
  }),
  signature: z.string(),
});

export const joinAnswer = z.object({ success: z.literal(true), message: z.string() });

export const joinLinkResponse = z.object({
  success: z.literal(true),
  data: z.object({
    slug: z.string(),
    url: z.string(),
    posterUrl: z.string(),
    /** The link's QR code, public like the link. */
    qrSvgUrl: z.string(),
    qrPngUrl: z.string(),
  }),
});
