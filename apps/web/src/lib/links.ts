/**
 * Addresses several screens link to. "Get your text number" goes straight to the text-number card on the
 * Billing tab (issue 27), not to the top of Billing five screens above it.
 */
export const TEXT_NUMBER_ANCHOR = 'text-number';
export const textNumberLink = `/account?tab=billing#${TEXT_NUMBER_ANCHOR}`;
