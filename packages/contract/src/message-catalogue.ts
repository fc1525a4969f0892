import { adminMessages } from './admin.schemas.ts';
import { billingMessages } from './billing.messages.ts';
import { calendarMessages, calendarSkipMessages } from './calendar.messages.ts';
import { customerWords } from './customer-words/index.ts';
import { dashboardMessages, weeklySummaryMessages } from './dashboard.schemas.ts';
import { billingFieldMessages, fieldMessages } from './field-messages.ts';
import { inboxMessages } from './inbox.schemas.ts';
import { joinRecordMessages } from './join.schemas.ts';
import { authMessages, screenMessages, validationMessages } from './messages.ts';
import { offerMessages } from './offers.messages.ts';
import { pushMessages } from './push.ts';
import { socialMessages } from './social.schemas.ts';
import { waitlistMessages } from './waitlist.messages.ts';

/** Every message catalogue of the contract (its test checks that none is left out). */
export const messageCatalogues = {
  adminMessages,
  authMessages,
  billingFieldMessages,
  billingMessages,
  calendarMessages,
  calendarSkipMessages,
  dashboardMessages,
  fieldMessages,
  inboxMessages,
  joinRecordMessages,
  offerMessages,
  pushMessages,
  screenMessages,
  socialMessages,
  validationMessages,
  waitlistMessages,
  weeklySummaryMessages,
} as const;

/**
 * Whether a message is one of the catalogue's (issue 27): a string of any exported `…Messages` object or of
 * the customer words, or what one of their message functions says for any arguments. The tests of the
 * contract and of the server hold every validation answer to it.
 */
export function isCatalogueMessage(message: string): boolean {
  catalogue ??= readCatalogue();
  return catalogue.exact.has(message) || catalogue.patterns.some((pattern) => pattern.test(message));
}

let catalogue: { exact: Set<string>; patterns: RegExp[] } | undefined;

const ARG = '\u0001ARG\u0001';
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function readCatalogue() {
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  const visit = (value: unknown, depth: number) => {
    if (typeof value === 'string') exact.add(value);
    else if (typeof value === 'function') {
      const pattern = patternOf(value as (...args: unknown[]) => unknown);
      if (pattern) patterns.push(pattern);
    } else if (value && typeof value === 'object' && depth < 4) {
      for (const child of Object.values(value)) visit(child, depth + 1);
    }
  };
  for (const value of Object.values(messageCatalogues)) visit(value, 0);
  visit(customerWords(), 0);
  return { exact, patterns };
}

/** A message function's words with each argument standing for any text. */
function patternOf(message: (...args: unknown[]) => unknown): RegExp | undefined {
  let text: unknown;
  try {
    text = message(...Array.from({ length: Math.max(1, message.length) }, () => ARG));
  } catch {
    return undefined;
  }
  if (typeof text !== 'string') return undefined;
  const pattern = escapeRegExp(text).split(escapeRegExp(ARG)).join('.+');
  return pattern === '.+' ? undefined : new RegExp(`^${pattern}$`, 's');
}
