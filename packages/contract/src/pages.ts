/**
 * Every page the web app has (SPEC §2 and the features since), as path patterns. The server answers
 * these with the app and 200, and any other address with the app and 404, so an unknown page is a 404
 * for browsers, crawlers and monitors alike; the web's router test keeps this list and its routes equal.
 */
export const webPagePatterns = [
  '/',
  '/login',
  '/register',
  '/forgot-password',
  '/post-login-onboarding',
  '/reset-password',
  '/reset-password/:resettoken',
  '/verify-account',
  '/congratulations',
  '/congratulations/business-details',
  '/account',
  '/dashboard',
  '/subscription/success',
  '/subscription/cancel',
  '/toast-demo',
  '/waitlist',
  '/waitlist/:id',
  '/openings',
  '/openings/:id',
  '/inbox',
  '/inbox/:id',
  '/services',
  '/day',
  '/settings',
  '/settings/business',
  '/settings/text-number',
  '/settings/offer-rules',
  '/settings/calendar',
  '/join/:slug',
  '/join/:slug/poster',
  '/admin',
] as const;

const matchers = webPagePatterns.map((pattern) => new RegExp(`^${pattern.replace(/:[a-z]+/gi, '[^/]+')}/?$`));

/** Whether a path (no query string) is one of the web app's pages. */
export function isWebPage(pathname: string): boolean {
  return matchers.some((matcher) => matcher.test(pathname));
}
