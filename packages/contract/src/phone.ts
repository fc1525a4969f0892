/** US business phone helpers (SPEC §5): shown as (555) 123-4567, sent as 10 digits. */
export function phoneDigits(value: string, max = 10): string {
  return value.replace(/\D/g, '').slice(0, max);
}

export function formatUsPhone(value: string | null | undefined): string {
  const digits = phoneDigits(value ?? '');
  if (digits.length === 0) return '';
  if (digits.length < 4) return `(${digits}`;
  if (digits.length < 7) return `(${digits.slice(0, 3)}) ${digits.slice(3)}`;
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}
