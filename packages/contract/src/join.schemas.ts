import { z } from 'zod';
import { customerWords } from './customer-words/index.ts';
import { fieldMessages } from './field-messages.ts';
import { waitlistMessages } from './waitlist.messages.ts';
import { customerLanguages, normalizePhone } from './waitlist.schemas.ts';

/**
 * Customers join a waitlist themselves (issue 15): a public page per business, /join/{slug}, with a QR code
 * and a printable poster; a confirmation text makes it a double opt-in, and texting JOIN starts the same.
 * What the customer reads there is in the catalogue of customer words (`customerWords().join`, issue 25).
 */
const words = customerWords().join;

/** What a join request records when it came by text: the owner reads these on the customer's page. */
export const joinRecordMessages = {
  /** The consent kept with the request. */
  textConsent: 'Texted JOIN to the business number',
  /** The customer's name when the JOIN text carried none. */
  unnamedCustomer: 'Texted JOIN',
} as const;

export const joinBody = z.object({
  name: z
    .string({ error: words.nameRequired })
    .trim()
    .min(1, words.nameRequired)
    .max(100, fieldMessages.tooLong(100)),
  phone: z
    .string({ error: words.phoneRequired })
    .trim()
    .min(1, words.phoneRequired)
    .max(40, words.invalidPhone)
    .refine((value) => normalizePhone(value) !== null, words.invalidPhone),
  consent: z.literal(true, { error: words.consentRequired }),
  /** A honeypot: people never see or fill it; a bot that fills it is answered as if fine, and nothing is kept. */
  website: z.string().max(200, fieldMessages.tooLong(200)).optional(),
  /** The service they wait for and with whom (issue 26), from the business's lists; optional. */
  serviceId: z.string().uuid(fieldMessages.invalidChoice).nullable().optional(),
  staffId: z.string().uuid(fieldMessages.invalidChoice).nullable().optional(),
  /** The language the page was shown in (issue 28): the customer's texts and the consent kept are in it. */
  language: z.enum(customerLanguages, { error: waitlistMessages.invalidLanguage }).optional(),
  /**
   * A solved ALTCHA proof of work (base64 JSON, from GET /join/{slug}/challenge), asked for once one address
   * has sent a few sign-ups in an hour (issue 24); each one is taken once.
   */
  altcha: z.string().max(8000, fieldMessages.tooLong(8000)).optional(),
});
export type JoinBody = z.input<typeof joinBody>;

export const joinPageResponse = z.object({
  success: z.literal(true),
  data: z.object({
    businessName: z.string(),
    consentText: z.string(),
    /** The business's verified text number (E.164), for "Or text JOIN to our number" on the poster; null until then. */
    textNumber: z.string().nullable(),
    /** The waitlist is at its plan's cap: the page says so kindly instead of showing the form. */
    full: z.boolean(),
    /** This address must send a solved proof of work with its next sign-up (issue 24). */
    proofRequired: z.boolean(),
    /** The business's services and staff to choose from (issue 26); empty lists hide the fields. */
    services: z.array(z.object({ id: z.string(), name: z.string() })),
    staff: z.array(z.object({ id: z.string(), name: z.string() })),
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
