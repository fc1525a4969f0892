import { VERIFICATION_CODE_LENGTH } from '@waitlist/contract';

/** Keeps digits only, at most six of them, whatever is typed or pasted (sign-up and email-change codes). */
export function toVerificationCode(value: string): string {
  return value.replace(/\D/g, '').slice(0, VERIFICATION_CODE_LENGTH);
}
