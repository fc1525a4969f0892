/**
 * The one catalogue of customer words (issue 25): every text a customer can receive, every keyword and claim
 * word they can send, the public join page's wording, and how slot times read, keyed by locale. A locale is
 * one file typed `CustomerWords`, so the type checker holds each complete.
 */
export { businessNameIn, customerWords, DEFAULT_LOCALE, LOCALES, type Locale } from './catalogue.ts';
export { createCustomerI18n, localeFiles, localeOf } from './i18n.ts';
export {
  normalizeReply,
  type ReplyKeyword,
  type ReplyReading,
  readLanguageSwitch,
  readReply,
} from './read-reply.ts';
export { formatSlotTime } from './slot-time.ts';
export type { BusinessText, CustomerWords, JoinWords, LocaleFile } from './types.ts';
