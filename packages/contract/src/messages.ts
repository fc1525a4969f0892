/**
 * Every user-facing message of SPEC.md §5 and §8, word for word, in one place so the web app and
 * the server say exactly the same thing. Messages the SPEC does not give are marked "ours".
 */
export const validationMessages = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  emailInvalidFormat: 'Invalid email format',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 6 characters',
  passwordTooShortLong: 'Password must be at least 6 characters long',
  passwordTooLong: 'Password must be at most 128 characters', // ours
  confirmPasswordRequired: 'Please confirm your password',
  passwordsDoNotMatch: 'Passwords do not match',
  newPasswordMismatch: 'New password and confirmation do not match',
  currentPasswordRequired: 'Current password is required', // ours
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  nameTooLong: 'Must be at most 100 characters', // ours
  termsRequired: 'You must accept the Terms of Service',
  termsRequiredForProvider: (provider: 'Google' | 'Facebook') =>
    `You must accept the Terms of Service before continuing with ${provider}`,
  verificationCodeRequired: 'Verification code is required',
  verificationCodeLength: 'Verification code must be 6 digits',
  businessNameRequired: 'Business name is required',
  businessPhoneRequired: 'Business phone is required',
  businessPhoneInvalid: 'Please enter a valid 10-digit phone number',
  deleteConfirmation: 'Please type DELETE to confirm',
  socialEmailRequired: 'Email is required. Please check your Google/Facebook permissions.',
  /** SPEC §8 names this phrase in the server's Apple error; the web asks for the phone on it. */
  phoneNumberRequired: 'Phone number is required',
  validationErrorTitle: 'Validation Error',
  // ours (issue 12): NUL and unpaired surrogates, refused in every string field
  unstorableText: (field: string) =>
    `${field} contains a character that is not allowed (a NUL byte or an unpaired surrogate)`,
} as const;

export const authMessages = {
  registrationFailed: 'Registration failed. Please try again.',
  unableToConnect: 'Unable to connect to the server. Please check your internet connection and try again.',
  loginFailed: 'Login failed. Please check your credentials and try again.',
  invalidCredentials: 'Invalid email or password. Please try again.',
  accountNotFound: 'Account not found. Please check your email or register.',
  noResponse: 'No response from server. Please check your internet connection and try again.',
  externalAuthFailed: 'External authentication failed',
  failedToGetUserData: 'Failed to get user data',
  forgotPasswordFailed: 'Failed to process forgot password request',
  resetPasswordFailed: 'Failed to reset password',
  sendVerificationFailed: 'Failed to send verification code',
  verifyAccountFailed: 'Failed to verify account',
  fetchUsersFailed: 'Failed to fetch users',
  fetchProfileFailed: 'Failed to fetch user profile. Please try again.',
  updateProfileFailed: 'Failed to update profile. Please try again.',
  currentPasswordIncorrect: 'Current password is incorrect',
  updatePasswordFailed: 'Failed to update password',
  googleNotConfigured: 'Google Sign-In is not configured...',
  facebookNotConfigured: 'Facebook Sign-In is not configured...',
  appleNotConfigured: 'Apple Sign-In is not configured...',
  socialSignInFailed: (provider: 'Google' | 'Facebook' | 'Apple') =>
    `${provider} sign-in failed. Please try again.`,
  appleNoIdToken: 'No ID token received from Apple',
  googleInitFailed: 'Failed to initiate Google login. Please try again.',
  // ours: the server's own answers
  loginSuccessful: 'Login successful',
  registered: 'Account created. We sent a 6-digit code to your email.',
  loggedOut: 'You have been logged out.',
  emailTaken: 'An account with this email already exists',
  notAuthenticated: 'Please log in to continue',
  sessionExpired: 'Your session has expired. Please log in again.',
  notAllowed: 'You are not allowed to do that',
  notVerified: 'Please verify your email address first',
  alreadyVerified: 'Your account is already verified',
  codeInvalid: 'Invalid verification code',
  codeExpired: 'Verification code has expired. Please request a new one.',
  codeBurned: 'Too many incorrect attempts. Please request a new verification code.',
  // ours (issue 24): a code verifies only the address it was emailed to
  codeForOtherAddress:
    'This code was sent to a different email address. Please enter the newest code, or request a new one.',
  // ours (issue 24): the address a code would go to changed while the request was on its way
  emailChangedMeanwhile: 'Your email address changed just now. Please try again.',
  resetTokenInvalid: 'Invalid or expired reset token. Please request a new password reset.',
  externalCannotChangePassword:
    'Accounts that sign in with Google, Facebook or Apple cannot change a password',
  tooManyAttempts: (minutes: number) =>
    `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  accountDeleted: 'Your account has been deleted.',
  detailsUpdated: 'Your profile information has been updated successfully',
  emailChangedVerify: 'Your profile was updated. We sent a 6-digit code to your new email address.',
  // ours (issue 12): a verified account's new address takes effect only once its code is entered
  emailChangePending: (email: string) =>
    `We sent a 6-digit code to ${email}. Your email address changes once you enter it.`,
  emailChanged: 'Your email address has been changed.',
  emailChangeCancelled: 'The email change was cancelled. Your email address stays the same.',
  noPendingEmail: 'There is no new email address waiting for a code.',
  businessSubmitted: 'Business details submitted successfully',
  validationFailed: 'Please correct the highlighted fields', // ours
  notFound: 'Not found', // ours
  serverError: 'Something went wrong on our side. Please try again.', // ours
  /** The database is unreachable (restarting, failing over): nothing was changed. */
  serviceUnavailable:
    'The service is briefly unavailable. Nothing was changed; please try again in a moment.', // ours
  /** Readiness while the instance shuts down. */
  shuttingDown: 'This server is shutting down.', // ours
  metricsTokenRequired: 'A valid metrics token is required.', // ours
  /** A provider (Stripe) did not answer or failed on its side: nothing was changed. */
  providerUnavailable:
    'Our payment provider is not answering right now. Nothing was changed; please try again in a moment.', // ours
} as const;

export const screenMessages = {
  forgotPasswordSent: 'Password reset instructions have been sent to your email.',
  passwordResetSuccess: 'Your password has been reset successfully.',
  accountVerified: 'Account verified successfully!',
  newCodeSent: 'A new verification code has been sent to your email.',
  profileUpdated: 'Your profile information has been updated successfully',
  passwordUpdated: 'Your password has been updated successfully.',
  invalidResetToken: 'Invalid or missing reset token. Please request a new password reset.',
  resetFailed: 'Failed to process your request. Please try again.',
  resetFailedTitle: 'Reset Failed',
  verifyFailed: 'Failed to verify account. Please check your code and try again.',
  resendFailed: 'Failed to resend verification code. Please try again.',
  businessDetailsFailed: 'Failed to submit business details',
  loadProfileFailed: 'Failed to load user profile',
  updateProfileFailed: 'Failed to update profile',
  updatePasswordFailed: 'Failed to update password',
  deleteAccountFailed: 'Failed to delete account. Please try again.',
  // ours (issue 12): the pending new email on the Account page
  confirmEmailFailed: 'Failed to confirm your new email. Please check the code and try again.',
  cancelEmailChangeFailed: 'Failed to cancel the email change. Please try again.',
  emailCodeResent: 'A new code has been sent to your new email address.',
} as const;

export const planLabels = {
  free_trial: 'Free Trial',
  starter: 'Starter Plan',
  growth: 'Growth Plan',
} as const;
