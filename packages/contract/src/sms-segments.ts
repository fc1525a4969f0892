import { customerWords, type Locale } from './customer-words/index.ts';

/**
 * SMS length, encoding and carrier-filter warnings (issue 5): what the owner sees while typing a text.
 * GSM-7: 160 septets in one segment, 153 per segment when split (the extension table's characters take two
 * septets and are never split across segments). Anything outside GSM-7 makes the whole text UCS-2: 70 UTF-16
 * units in one segment, 67 per segment when split (a surrogate pair, e.g. an emoji, is never split).
 */

export type SmsEncoding = 'GSM-7' | 'UCS-2';

const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** The extension table: each is sent as ESC + the character, so it counts 2. */
const GSM7_EXTENSION = '^{}\\[~]|€\f';

const basicSet = new Set(GSM7_BASIC);
const extensionSet = new Set(GSM7_EXTENSION);

export const SMS_LIMITS = {
  'GSM-7': { single: 160, multi: 153 },
  'UCS-2': { single: 70, multi: 67 },
} as const;

export function isGsm7(text: string): boolean {
  for (const ch of text) if (!basicSet.has(ch) && !extensionSet.has(ch)) return false;
  return true;
}

export function smsEncoding(text: string): SmsEncoding {
  return isGsm7(text) ? 'GSM-7' : 'UCS-2';
}

/**
 * The first character that makes a text UCS-2 (issue 28), whole even when it is a surrogate pair ("💈"), or
 * null for a GSM-7 text: what the editor names when a text costs more than it seems ("á", an emoji).
 */
export function ucs2Culprit(text: string): string | null {
  for (const ch of text) if (!basicSet.has(ch) && !extensionSet.has(ch)) return ch;
  return null;
}

/**
 * "Plain letters" (issue 28): each letter outside GSM-7 that is a GSM-7 letter with an accent written without
 * it (á → a, Í → I, ó → o, ú → u, ç → c), so a Spanish text stays GSM-7. Letters GSM-7 holds are kept (ñ é ü
 * Ñ É Ü à), and so is everything that is not such a letter (¿ ¡, emoji, curly quotes): only letters change.
 */
export function plainLetters(text: string): string {
  let out = '';
  for (const ch of text) {
    if (basicSet.has(ch) || extensionSet.has(ch) || !/\p{L}/u.test(ch)) {
      out += ch;
      continue;
    }
    const plain = ch.normalize('NFD').replace(/\p{M}/gu, '');
    out += plain !== ch && isGsm7(plain) ? plain : ch;
  }
  return out;
}

/** Units of each character in the text's encoding (septets for GSM-7, UTF-16 code units for UCS-2). */
function units(text: string, encoding: SmsEncoding): number[] {
  const out: number[] = [];
  for (const ch of text) {
    if (encoding === 'GSM-7') out.push(extensionSet.has(ch) ? 2 : 1);
    else out.push(ch.length); // 2 for characters outside the BMP (surrogate pair)
  }
  return out;
}

export interface SmsInfo {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2). */
  length: number;
  segments: number;
  /** Units still free in the last segment. */
  remaining: number;
  /** The size of one segment at the current length (160/153 or 70/67). */
  perSegment: number;
}

export function smsInfo(text: string): SmsInfo {
  const encoding = smsEncoding(text);
  const limits = SMS_LIMITS[encoding];
  const list = units(text, encoding);
  const length = list.reduce((a, b) => a + b, 0);
  if (length <= limits.single) {
    return {
      encoding,
      length,
      segments: text.length === 0 ? 0 : 1,
      remaining: limits.single - length,
      perSegment: limits.single,
    };
  }
  let segments = 1;
  let used = 0;
  for (const size of list) {
    if (used + size > limits.multi) {
      segments += 1;
      used = 0;
    }
    used += size;
  }
  return { encoding, length, segments, remaining: limits.multi - used, perSegment: limits.multi };
}

export function smsSegments(text: string): number {
  return smsInfo(text).segments;
}

export const URL_SHORTENERS = [
  'bit.ly',
  'tinyurl.com',
  'goo.gl',
  't.co',
  'ow.ly',
  'is.gd',
  'buff.ly',
  'rebrand.ly',
  'cutt.ly',
  'shorturl.at',
  'tiny.cc',
  't.ly',
  'rb.gy',
] as const;

export type SmsWarningCode = 'link' | 'url_shortener' | 'multiple_segments';
export interface SmsWarning {
  code: SmsWarningCode;
  message: string;
}

const LINK_PATTERN =
  /\b(?:https?:\/\/|www\.)\S+|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|co|us|ly|me|info|biz|app|link|gd|at|cc|gy)\b(?:\/\S*)?/i;

function hasShortener(text: string): boolean {
  const lower = text.toLowerCase();
  return URL_SHORTENERS.some((domain) => {
    const escaped = domain.replace(/\./g, '\\.');
    return new RegExp(`(?:^|[^a-z0-9.-])(?:https?://)?(?:www\\.)?${escaped}(?:/|\\b)`).test(lower);
  });
}

/** What carriers filter or charge for, in the order shown to the owner. */
export function smsWarnings(text: string): SmsWarning[] {
  const warnings: SmsWarning[] = [];
  if (hasShortener(text)) {
    warnings.push({
      code: 'url_shortener',
      message: 'Carriers often block texts with URL shorteners (bit.ly, tinyurl…). Use your full link.',
    });
  } else if (LINK_PATTERN.test(text)) {
    warnings.push({
      code: 'link',
      message: 'Texts with links are more likely to be filtered by carriers.',
    });
  }
  const info = smsInfo(text);
  if (info.segments > 1) {
    warnings.push({
      code: 'multiple_segments',
      message: `This text is ${info.segments} segments (${info.encoding}); each segment is billed and long texts are filtered more often.`,
    });
  }
  return warnings;
}

/**
 * A text exactly as it goes out (issue 15): the first text to a customer ends with the opt-out line
 * (`texts.optOutFooter`), unless it already names the stop word texts tell customers to send ("STOP"). The
 * server sends this and the template editor counts segments on it.
 */
export function textAsSent(body: string, options: { firstText: boolean; locale?: Locale }): string {
  const { texts, keywords } = customerWords(options.locale);
  const stopWord = (keywords.stop[0] ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const namesStop = new RegExp(`(?<![\\p{L}\\p{N}_])${stopWord}(?![\\p{L}\\p{N}_])`, 'u').test(body);
  return options.firstText && !namesStop ? `${body}\n${texts.optOutFooter}` : body;
}

/**
 * Placeholder values as long as real texts get, for counting a template's segments: a long first name and
 * a slot the way alerts write it, with a long service.
 */
export const TEMPLATE_SAMPLE_VALUES = {
  name: 'Alexandra',
  time: 'Wed, Nov 25 at 12:30 PM (Deep conditioning treatment and blow-dry)',
} as const;

/**
 * The sample values per language (issue 28): the Spanish slot as `formatSlotTime` writes a Wednesday
 * ("mié" is GSM-7; a Saturday's "sáb" is not), and a long service whose "hidratación" makes a text UCS-2
 * unless plain letters are chosen.
 */
export const TEMPLATE_SAMPLE_VALUES_BY_LOCALE: Readonly<Record<Locale, { name: string; time: string }>> = {
  en: TEMPLATE_SAMPLE_VALUES,
  es: {
    name: 'Alexandra',
    time: 'mié, 25 de nov a las 12:30 p.m. (Tratamiento de hidratación profunda y secado)',
  },
};

/**
 * A Spanish text as it is sent (issue 28): with the business's "plain letters" setting on, the accents GSM-7
 * lacks are dropped (á → a) so the text keeps 160 characters a segment; otherwise it is sent as written.
 */
export function spanishTextAsSent(text: string, plain: boolean): string {
  return plain ? plainLetters(text) : text;
}

/**
 * What one text of a template costs, counted on what will really be sent: the business's real name, the
 * sample values, the first-text footer; and for an alert, the texts billed (segments × waiting customers).
 */
export function templateCost(
  filled: string,
  options: { waitingCustomers?: number; locale?: Locale } = {},
): { text: string; segments: number; encoding: SmsEncoding; alertTexts: number | null } {
  const text = textAsSent(filled, { firstText: true, locale: options.locale });
  const info = smsInfo(text);
  return {
    text,
    segments: Math.max(1, info.segments),
    encoding: info.encoding,
    alertTexts:
      options.waitingCustomers === undefined ? null : Math.max(1, info.segments) * options.waitingCustomers,
  };
}
