/** Business constants of SPEC §9 and the account rules of issue 3. */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;
export const VERIFICATION_CODE_LENGTH = 6;
export const VERIFICATION_CODE_TTL_MINUTES = 10;
export const VERIFICATION_CODE_MAX_ATTEMPTS = 5;
export const RESET_TOKEN_TTL_MINUTES = 60;
export const TRIAL_DAYS = 7;
export const BUSINESS_PHONE_DIGITS = 10;
export const DELETE_CONFIRMATION_WORD = 'DELETE';

export const TOAST_DEFAULT_MS = 5000;
export const TOAST_ERROR_MS = 7000;
export const TOAST_EXIT_MS = 300;
export const TOAST_STACK_OFFSET_PX = 80;
export const RESET_REDIRECT_MS = 3000;
export const VERIFY_REDIRECT_MS = 1500;
export const VERIFICATION_BANNER_MS = 5000;
