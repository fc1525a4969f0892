/** US business phone helpers (SPEC §5): shown as (555) 123-4567, sent as 10 digits. */

/**
 * A number written with another country's code ("+44 20 7946 0958", "0044 20…"): it is no US business
 * phone, so it is kept as written and refused with the SPEC's 10-digit message, never cut into another
 * number (issue 27).
 */
export function isForeignPhone(value: string): boolean {
  return /^\s*(?:\+|00)[\s().-]*[02-9]/.test(value);
}

/**
 * The national digits of a US number as typed or pasted: "+1 (555) 123-4567" and "1 555 123 4567" are
 * "5551234567". No US area code starts with 1, so a leading 1 is always the country code.
 */
export function usNationalDigits(value: string): string {
  return value.replace(/\D/g, '').replace(/^(?:00)?1/, '');
}

/** The first `max` national digits (the country code dropped first, so "+1 555…" keeps all ten). */
export function phoneDigits(value: string, max = 10): string {
  return usNationalDigits(value).slice(0, max);
}

/**
 * The business phone as the field shows it while typed or pasted: "(555) 123-4567", at most 10 digits; a
 * foreign number stays as written, so the form says it is not a 10-digit US number instead of shortening it.
 */
export function formatUsPhone(value: string | null | undefined): string {
  if (value && isForeignPhone(value)) return value.replace(/[^\d\s()+.-]/g, '').slice(0, 32);
  // A "+" or "+1" being typed stays until the next digit shows which country it is.
  if (value && /^\s*\+1?\s*$/.test(value)) return value.trim();
  const digits = phoneDigits(value ?? '');
  if (digits.length === 0) return '';
  if (digits.length < 4) return `(${digits}`;
  if (digits.length < 7) return `(${digits.slice(0, 3)}) ${digits.slice(3)}`;
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}

/**
 * What the server stores for a business phone: its 10 national digits, or the text as written when it is
 * not a US number (then the 10-digit check refuses it).
 */
export function businessPhoneValue(value: string): string {
  return isForeignPhone(value) ? value.trim() : usNationalDigits(value);
}
