import { OPT_OUT_FOOTER } from '@waitlist/contract';

/** What the owner and the customers read (issue 5). The opt-out line lives in the contract (issue 15). */
export { OPT_OUT_FOOTER };

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

/** The texts a keyword answers with; `business` is the business name. */
export const keywordReplies = {
  stop: (business: string) =>
    `${business}: You have been unsubscribed and will receive no more texts. Reply START to subscribe again.`,
  start: (business: string) => `${business}: You are subscribed to texts again. ${OPT_OUT_FOOTER}.`,
  help: (business: string) =>
    `${business}: texts about your waitlist and openings. Reply STOP to opt out, START to opt back in. Msg & data rates may apply.`,
};

export const STOP_WORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'] as const;
export const START_WORDS = ['START', 'UNSTOP'] as const;
export const HELP_WORDS = ['HELP'] as const;

export type Keyword = 'stop' | 'start' | 'help';

/** The keyword a whole text is, ignoring case, surrounding spaces and punctuation ("Stop." is STOP). */
export function keywordOf(text: string): Keyword | null {
  const word = text
    .trim()
    .replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, '')
    .toUpperCase();
  if ((STOP_WORDS as readonly string[]).includes(word)) return 'stop';
  if ((START_WORDS as readonly string[]).includes(word)) return 'start';
  if ((HELP_WORDS as readonly string[]).includes(word)) return 'help';
  return null;
}
