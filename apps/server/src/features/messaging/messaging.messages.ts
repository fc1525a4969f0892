import { customerWords, type ReplyKeyword, readReply } from '@waitlist/contract';

/**
 * What the owner reads (issue 5). What customers read and type is in the contract's catalogue of customer
 * words (issue 25); the names below it delegate there until texting reads the catalogue.
 */
/** @deprecated use customerWords().texts.optOutFooter (issue 25) */
export const OPT_OUT_FOOTER = customerWords().texts.optOutFooter;

export const messagingMessages = {
  noNumber: 'You have no text number yet. Request one in the Billing tab before sending texts.',
  numberPending: 'Your text number is still being verified. Texts can be sent once it is verified.',
  numberFailed: (reason: string | null) =>
    `Your text number failed verification${reason ? `: ${reason}` : ''}. Request a new number in the Billing tab.`,
  optedOut: (name: string) =>
    `${name} opted out of texts (replied STOP). They get no texts until they text START.`,
  numberOptedOut:
    'This number opted out of your texts (replied STOP). It gets no texts until it texts START.',
  customerNotFound: 'That customer is not on your waitlist.',
  alreadyHasNumber: 'You already have a text number. Verify it instead of requesting another.',
  noNumberAvailable: (areaCode?: string) =>
    areaCode
      ? `No text numbers are available in area code ${areaCode}. Try another area code or leave it empty.`
      : 'No text numbers are available right now. Please try again later.',
  requestFirst: 'Request a text number first.',
  providerUnavailable: 'The text provider could not be reached. Please try again in a minute.',
  requested: 'Your text number was requested. It can send texts once verified.',
  verified: 'Your text number is verified and ready to send texts.',
  stillPending: 'Your text number is still being verified by the carriers. Check again later.',
  failedVerification: 'Your text number failed verification.',
  signatureMissing: 'Missing Plivo signature.',
  signatureInvalid: 'Invalid Plivo signature.',
  webhookNotConfigured: 'Plivo webhooks are not configured (PLIVO_AUTH_TOKEN is not set).',
} as const;

/** @deprecated use customerWords().texts.stopConfirmation / startConfirmation / help (issue 25) */
export const keywordReplies = {
  stop: (business: string) => customerWords().texts.stopConfirmation(business),
  start: (business: string) => customerWords().texts.startConfirmation(business),
  help: (business: string) => customerWords().texts.help(business),
};

/** @deprecated use customerWords().keywords.stop (issue 25) */
export const STOP_WORDS = customerWords().keywords.stop;
/** @deprecated use customerWords().keywords.start (issue 25) */
export const START_WORDS = customerWords().keywords.start;
/** @deprecated use customerWords().keywords.help (issue 25) */
export const HELP_WORDS = customerWords().keywords.help;

export type Keyword = Exclude<ReplyKeyword, 'join'>;

/** @deprecated use readReply(text).keyword (issue 25); JOIN is read there too, and is null here as before */
export function keywordOf(text: string): Keyword | null {
  const { keyword } = readReply(text);
  return keyword === 'join' ? null : keyword;
}
