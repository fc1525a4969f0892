/**
 * What the owner reads (issue 5). What customers read and type is in the contract's catalogue of customer
 * words (issue 25).
 */
export const messagingMessages = {
  noNumber: 'You have no text number yet. Request one in the Billing tab before sending texts.',
  numberPending: 'Your text number is still being verified. Texts can be sent once it is verified.',
  numberFailed: (reason: string | null) =>
    `Your text number failed verification${reason ? `: ${reason}` : ''}. Request a new number in the Billing tab.`,
  optedOut: (name: string) =>
    `${name} opted out of texts (replied STOP). They get no texts until they text START.`,
  numberOptedOut:
    'This number opted out of your texts (replied STOP). It gets no texts until it texts START.',
  customerNotFound: 'That customer is not on your waitlist.',
  alreadyHasNumber: 'You already have a text number. Verify it instead of requesting another.',
  noNumberAvailable: (areaCode?: string) =>
    areaCode
      ? `No text numbers are available in area code ${areaCode}. Try another area code or leave it empty.`
      : 'No text numbers are available right now. Please try again later.',
  requestFirst: 'Request a text number first.',
  providerUnavailable: 'The text provider could not be reached. Please try again in a minute.',
  requested: 'Your text number was requested. It can send texts once verified.',
  verified: 'Your text number is verified and ready to send texts.',
  stillPending: 'Your text number is still being verified by the carriers. Check again later.',
  failedVerification: 'Your text number failed verification.',
  signatureMissing: 'Missing Plivo signature.',
  signatureInvalid: 'Invalid Plivo signature.',
  webhookNotConfigured: 'Plivo webhooks are not configured (PLIVO_AUTH_TOKEN is not set).',
} as const;
