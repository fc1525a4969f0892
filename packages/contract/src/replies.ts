import { customerWords, readReply } from './customer-words/index.ts';

/**
 * How a customer's reply is read moved to the catalogue of customer words (issue 25): `readReply` and the
 * words in `customer-words/en.ts`. These names remain until texting and openings read the catalogue.
 */

/** @deprecated use customerWords().claim.yesWords (issue 25) */
export const CLAIM_YES_WORDS = customerWords().claim.yesWords;

/** @deprecated use customerWords().claim.phrases (issue 25) */
export const CLAIM_PHRASES = customerWords().claim.phrases;

/** @deprecated use readReply(text).claim (issue 25) */
export function isClaim(text: string): boolean {
  return readReply(text).claim;
}

/** @deprecated use customerWords().texts.autoAnswer (issue 25) */
export const replyMessages = {
  autoAnswer: (business: string) => customerWords().texts.autoAnswer(business),
} as const;
