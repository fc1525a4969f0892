import { describe, expect, it } from 'vitest';
import { businessCountry, isTextableNumber, whyNotTextable } from './textable-number.ts';

/** Issue 24, SMS pumping: which numbers the join page and a JOIN text may reach. */
describe('textable numbers', () => {
  it.each([
    // A US business: its own mobile/landline numbers only.
    ['+12125550101', 'US', null, 'a New York number (fixed line or mobile)'],
    ['+16502530000', 'US', null, 'a California number'],
    ['+18005550100', 'US', 'not_textable_type', 'US toll-free'],
    ['+18885550100', 'US', 'not_textable_type', 'US toll-free (888)'],
    ['+19005550100', 'US', 'not_textable_type', 'US premium rate (900)'],
    ['+15005550006', 'US', 'not_textable_type', 'US personal number (500)'],
    ['+15146641234', 'US', 'other_country', 'Canada shares +1 but is another country'],
    ['+18765551234', 'US', 'other_country', 'Jamaica shares +1 (a pumping favourite)'],
    ['+449098790000', 'US', 'other_country', 'UK premium rate'],
    ['+979123456789', 'US', 'other_country', 'international premium rate (+979, no country)'],
    ['+881612345678', 'US', 'other_country', 'satellite (+881, no country)'],
    ['+870772123456', 'US', 'other_country', 'Inmarsat (+870)'],
    ['+252611234567', 'US', 'other_country', 'Somalia'],
    ['+5352123456', 'US', 'other_country', 'Cuba'],
    ['+224621234567', 'US', 'other_country', 'Guinea'],
    ['+12125', 'US', 'invalid', 'too short'],
    // A UK business: mobiles and landlines, never premium, VoIP, personal or shared-cost numbers.
    ['+447400123456', 'GB', null, 'a UK mobile'],
    ['+442079460000', 'GB', null, 'a London landline (fixed line is allowed)'],
    ['+449098790000', 'GB', 'not_textable_type', 'UK premium rate (0909)'],
    ['+448450000000', 'GB', 'not_textable_type', 'UK 0845 (shared cost, read as premium)'],
    ['+448001234567', 'GB', 'not_textable_type', 'UK toll-free (0800)'],
    ['+445612345678', 'GB', 'not_textable_type', 'UK VoIP (056)'],
    ['+447012345678', 'GB', 'not_textable_type', 'UK personal number (070)'],
    ['+447624123456', 'GB', 'other_country', 'Isle of Man mobile (+44 7624, another region)'],
    ['+12125550101', 'GB', 'other_country', 'a US number for a UK business'],
  ] as const)('%s for a %s business: %s (%s)', (number, country, why, _case) => {
    expect(whyNotTextable(number, country)).toBe(why);
    expect(isTextableNumber(number, country)).toBe(why === null);
  });

  it.each([
    [{ plivoNumber: '+12125550100', businessPhone: '' }, 'US'],
    [{ plivoNumber: '+447400123456', businessPhone: '' }, 'GB'],
    // The local phone's test range is not a valid number: the business phone decides.
    [{ plivoNumber: '+15555550100', businessPhone: '+442079460000' }, 'GB'],
    [{ plivoNumber: null, businessPhone: '(212) 555-0123' }, 'US'],
    [{ plivoNumber: null, businessPhone: '' }, 'US'],
    [{}, 'US'],
  ] as const)('the country of %o is %s', (business, country) => {
    expect(businessCountry(business)).toBe(country);
  });
});
