import { z } from 'zod';
import {
  BUSINESS_PHONE_DIGITS,
  DELETE_CONFIRMATION_WORD,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  VERIFICATION_CODE_LENGTH,
} from './constants.ts';
import { validationMessages as m } from './messages.ts';
import { businessPhoneValue } from './phone.ts';

/** A US business phone's 10 national digits (SPEC §5); "+1 (555) 123-4567" arrives here as 5551234567. */
const isBusinessPhoneDigits = (digits: string) =>
  digits.length === BUSINESS_PHONE_DIGITS && /^\d+$/.test(digits);

const requiredText = (message: string, max = 100) =>
  z.string({ error: message }).trim().min(1, message).max(max, m.nameTooLong);

const emailField = (invalidMessage: string) =>
  z
    .string({ error: m.emailRequired })
    .trim()
    .min(1, m.emailRequired)
    .max(254, invalidMessage)
    .pipe(z.email(invalidMessage));

const newPassword = (tooShort: string) =>
  z
    .string({ error: m.passwordRequired })
    .min(1, m.passwordRequired)
    .min(PASSWORD_MIN_LENGTH, tooShort)
    .max(PASSWORD_MAX_LENGTH, m.passwordTooLong);

const businessPhoneField = z
  .string({ error: m.businessPhoneRequired })
  .trim()
  .min(1, m.businessPhoneRequired)
  .transform(businessPhoneValue)
  .refine((digits) => isBusinessPhoneDigits(digits), m.businessPhoneInvalid);

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .nullish()
    .transform((value) => value ?? '');

// ---- request bodies (SPEC §7) ----

export const registerBody = z.object({
  firstName: requiredText(m.firstNameRequired),
  lastName: requiredText(m.lastNameRequired),
  email: emailField(m.emailInvalidFormat),
  password: newPassword(m.passwordTooShort),
});
export type RegisterBody = z.infer<typeof registerBody>;

export const loginBody = z.object({
  email: emailField(m.emailInvalid),
  password: z
    .string({ error: m.passwordRequired })
    .min(1, m.passwordRequired)
    .max(PASSWORD_MAX_LENGTH, m.passwordTooLong),
});
export type LoginBody = z.infer<typeof loginBody>;

export const forgotPasswordBody = z.object({ email: emailField(m.emailInvalid) });
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBody>;

export const resetPasswordBody = z.object({ password: newPassword(m.passwordTooShort) });
export type ResetPasswordBody = z.infer<typeof resetPasswordBody>;

export const verificationCodeField = z
  .string({ error: m.verificationCodeRequired })
  .trim()
  .min(1, m.verificationCodeRequired)
  .regex(/^\d+$/, m.verificationCodeLength)
  .length(VERIFICATION_CODE_LENGTH, m.verificationCodeLength);

export const verifyAccountBody = z.object({ verificationCode: verificationCodeField });
export type VerifyAccountBody = z.infer<typeof verifyAccountBody>;

/** POST /auth/confirm-email: the code sent to the new address of a pending email change (issue 12). */
export const confirmEmailBody = z.object({ verificationCode: verificationCodeField });
export type ConfirmEmailBody = z.infer<typeof confirmEmailBody>;

export const businessVerificationBody = z.object({
  businessName: requiredText(m.businessNameRequired, 120),
  businessPhone: businessPhoneField,
});
export type BusinessVerificationBody = z.input<typeof businessVerificationBody>;

/** The profile fields a user may change (SPEC §3 "Profile update fields"); nothing else is ever written. */
export const updateDetailsBody = z.object({
  firstName: requiredText(m.firstNameRequired),
  lastName: requiredText(m.lastNameRequired),
  email: emailField(m.emailInvalid),
  businessName: optionalText(120),
  businessPhone: z
    .string()
    .nullish()
    .transform((value) => businessPhoneValue(value ?? ''))
    .refine((digits) => digits.length === 0 || isBusinessPhoneDigits(digits), m.businessPhoneInvalid),
  businessAddress: optionalText(200),
  city: optionalText(100),
  state: optionalText(50),
  zip: optionalText(20),
});
export type UpdateDetailsBody = z.input<typeof updateDetailsBody>;

/** PUT /users/{id}: clients send the whole user object; only the profile fields are read from it. */
export const updateUserBody = updateDetailsBody.partial().extend({ id: z.string().optional() });

export const updatePasswordBody = z.object({
  currentPassword: z
    .string({ error: m.currentPasswordRequired })
    .min(1, m.currentPasswordRequired)
    .max(PASSWORD_MAX_LENGTH, m.passwordTooLong),
  newPassword: newPassword(m.passwordTooShortLong),
});
export type UpdatePasswordBody = z.infer<typeof updatePasswordBody>;

// ---- web forms: the request bodies plus the fields that never leave the browser ----

export const registerForm = registerBody
  .extend({
    confirmPassword: z.string().min(1, m.confirmPasswordRequired),
    acceptTerms: z.boolean().refine((accepted) => accepted, m.termsRequired),
  })
  .refine((form) => form.password === form.confirmPassword, {
    path: ['confirmPassword'],
    message: m.passwordsDoNotMatch,
  });
export type RegisterForm = z.input<typeof registerForm>;

export const resetPasswordForm = resetPasswordBody
  .extend({ confirmPassword: z.string().min(1, m.confirmPasswordRequired) })
  .refine((form) => form.password === form.confirmPassword, {
    path: ['confirmPassword'],
    message: m.passwordsDoNotMatch,
  });
export type ResetPasswordForm = z.infer<typeof resetPasswordForm>;

export const changePasswordForm = updatePasswordBody
  .extend({ confirmPassword: z.string().min(1, m.confirmPasswordRequired) })
  .refine((form) => form.newPassword === form.confirmPassword, {
    path: ['confirmPassword'],
    message: m.newPasswordMismatch,
  });
export type ChangePasswordForm = z.infer<typeof changePasswordForm>;

export const deleteAccountForm = z.object({
  confirmation: z.string().refine((value) => value === DELETE_CONFIRMATION_WORD, m.deleteConfirmation),
});
