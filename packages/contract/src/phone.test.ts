import { describe, expect, it } from 'vitest';
import { businessVerificationBody, updateDetailsBody } from './auth.schemas.ts';
import { validationMessages } from './messages.ts';
import { formatUsPhone, isForeignPhone, phoneDigits } from './phone.ts';

/** The business phone keeps the SPEC's 10 digits (§5), without cutting a number into another (issue 27). */

const business = (businessPhone: string) =>
  businessVerificationBody.safeParse({ businessName: 'Bella Salon', businessPhone });
const profile = (businessPhone: string) =>
  updateDetailsBody.safeParse({
    firstName: 'Bella',
    lastName: 'Rossi',
    email: 'b@example.com',
    businessPhone,
  });

describe('the business phone', () => {
  it.each([
    ['+1 (555) 123-4567'],
    ['1 555 123 4567'],
    ['1-555-123-4567'],
    ['001 555 123 4567'],
    ['(555) 123-4567'],
    ['555.123.4567'],
  ])('%s is stored as its 10 national digits, by both forms', (typed) => {
    expect(business(typed).data?.businessPhone).toBe('5551234567');
    expect(profile(typed).data?.businessPhone).toBe('5551234567');
    expect(formatUsPhone(typed)).toBe('(555) 123-4567');
  });

  it.each([
    ['+44 20 7946 0958'],
    ['0044 20 7946 0958'],
    ['+44 20 7946 095'],
    ['+49 30 1234567'],
    ['55512345678'],
    ['555123456'],
  ])('%s is refused with the 10-digit message, never shortened into a US number', (typed) => {
    for (const result of [business(typed), profile(typed)]) {
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([
        validationMessages.businessPhoneInvalid,
      ]);
    }
  });

  it('shows a foreign number as written while it is typed or pasted', () => {
    expect(isForeignPhone('+44 20 7946 0958')).toBe(true);
    expect(isForeignPhone('+1 555 123 4567')).toBe(false);
    expect(formatUsPhone('+44 20 7946 0958')).toBe('+44 20 7946 0958');
    expect(formatUsPhone('+')).toBe('+');
    expect(formatUsPhone('+1')).toBe('+1');
    expect(formatUsPhone('+1 5')).toBe('(5');
    // Plain digits stop at ten, as the SPEC's field does.
    expect(formatUsPhone('55512345678')).toBe('(555) 123-4567');
    expect(phoneDigits('+1 (555) 123-4567')).toBe('5551234567');
  });
});
