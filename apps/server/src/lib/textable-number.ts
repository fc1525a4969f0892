import type { CountryCode, NumberType } from 'libphonenumber-js/max';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * Which numbers a stranger may have us text (issue 24, SMS pumping): the join page and a JOIN text reach
 * numbers nobody on our side has vetted, so a number is texted only when it is of the business's own country
 * and of a type that receives texts at an ordinary price. The full ("max") metadata is needed: the smaller
 * sets cannot tell a premium-rate range from a mobile one.
 *
 * - MOBILE, FIXED_LINE_OR_MOBILE (most of North America), FIXED_LINE (landlines that take texts, as the issue
 *   allows: a text to a landline that cannot take it fails at the carrier, at an ordinary price).
 * - Never PREMIUM_RATE, SHARED_COST, TOLL_FREE (the pumping ranges), nor UAN, PAGER, PERSONAL_NUMBER,
 *   VOICEMAIL or VOIP. VoIP is refused because libphonenumber marks VOIP only for ranges reserved to VoIP
 *   services (UK 056, …), which mostly take no texts from a business sender and are cheap to rent in bulk;
 *   North American VoIP numbers (Google Voice and the like) sit in geographic ranges, read as
 *   FIXED_LINE_OR_MOBILE, and stay allowed.
 * - Never another country, and never a non-geographic code (+881/+882 satellite, +979 international
 *   premium, +870 Inmarsat), which have no country at all.
 */
const TEXTABLE_TYPES: ReadonlySet<NumberType> = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE', 'FIXED_LINE']);

/** The country a business texts in: that of its text number, else its business phone; the US by default. */
export function businessCountry(business: {
  plivoNumber?: string | null;
  businessPhone?: string | null;
}): CountryCode {
  for (const number of [business.plivoNumber, business.businessPhone]) {
    if (!number) continue;
    const parsed = parsePhoneNumberFromString(number, 'US');
    if (parsed?.country && parsed.isValid()) return parsed.country;
  }
  return 'US';
}

/** Why a number may not be texted, or null when it may. */
export function whyNotTextable(
  e164: string,
  country: CountryCode,
): null | 'invalid' | 'other_country' | 'not_textable_type' {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed?.isValid()) return 'invalid';
  if (parsed.country !== country) return 'other_country';
  const type = parsed.getType();
  if (!type || !TEXTABLE_TYPES.has(type)) return 'not_textable_type';
  return null;
}

/** Whether a stranger's number (E.164) may be texted for a business of `country`. */
export function isTextableNumber(e164: string, country: CountryCode): boolean {
  return whyNotTextable(e164, country) === null;
}
