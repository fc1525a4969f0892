import {
  customerWords,
  type Locale,
  plainLetters,
  renderTemplate,
  type SmsEncoding,
  smsInfo,
  spanishTextAsSent,
  TEMPLATE_SAMPLE_VALUES_BY_LOCALE,
  textAsSent,
  ucs2Culprit,
} from '@waitlist/contract';

/** Where the character that forces UCS-2 comes from: the owner's words, the business name, the sample time. */
export type CulpritSource = 'text' | 'business name' | 'sample time and service';

export interface TextCost {
  text: string;
  segments: number;
  encoding: SmsEncoding;
}

export interface LanguageCost {
  /** The text as it will be sent: with the business's plain letters applied to a Spanish text. */
  sent: TextCost;
  /** A Spanish text whose accents force UCS-2: as written and in plain letters, to show both ways. */
  bothWays: { written: TextCost; plain: TextCost; culprit: string } | null;
  /** The character that makes the sent text UCS-2, and where it comes from. */
  culprit: { char: string; from: CulpritSource } | null;
  /** Texts billed for one alert (segments × waiting customers), when the waiting count is known. */
  alertTexts: number | null;
}

const costOf = (text: string): TextCost => {
  const info = smsInfo(text);
  return { text, segments: Math.max(1, info.segments), encoding: info.encoding };
};

/**
 * What one text of a template costs in one language (issue 28), counted on what will really be sent: the
 * business's name, that language's sample name and time, its first-text opt-out line, and for Spanish the
 * business's "plain letters" setting.
 */
export function languageCost(
  body: string,
  options: { language: Locale; businessName: string; plain: boolean; waitingCustomers?: number },
): LanguageCost {
  const { language, businessName, waitingCustomers } = options;
  const business = businessName || customerWords(language).texts.unnamedBusiness;
  const filled = renderTemplate(body, { ...TEMPLATE_SAMPLE_VALUES_BY_LOCALE[language], business });
  const asWritten = textAsSent(filled, { firstText: true, locale: language });
  const written = costOf(asWritten);
  const spanish = language === 'es';
  const sent = spanish ? costOf(spanishTextAsSent(asWritten, options.plain)) : written;
  const writtenCulprit = ucs2Culprit(asWritten);
  const plain = costOf(plainLetters(asWritten));
  // Both ways only when plain letters would bring the text back to GSM-7 (an emoji keeps it UCS-2 anyway).
  const bothWays =
    spanish && writtenCulprit !== null && written.encoding === 'UCS-2' && plain.encoding === 'GSM-7'
      ? { written, plain, culprit: writtenCulprit }
      : null;
  const culpritChar = ucs2Culprit(sent.text);
  return {
    sent,
    bothWays,
    culprit: culpritChar === null ? null : { char: culpritChar, from: sourceOf(culpritChar, body, business) },
    alertTexts: waitingCustomers === undefined ? null : sent.segments * waitingCustomers,
  };
}

function sourceOf(char: string, body: string, business: string): CulpritSource {
  if (body.includes(char)) return 'text';
  return business.includes(char) ? 'business name' : 'sample time and service';
}

export const segmentsLabel = (count: number) => `${count} segment${count === 1 ? '' : 's'}`;
