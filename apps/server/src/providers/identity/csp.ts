import type { SocialConfig } from '../../config.ts';

export interface CspSources {
  scriptSrc: string[];
  frameSrc: string[];
  connectSrc: string[];
  styleSrc: string[];
  imgSrc: string[];
}

/**
 * What the browser needs to load each configured provider's sign-in SDK, added to the Content Security
 * Policy; nothing for a provider that is not configured.
 * - Google Identity Services: the paths Google documents for CSP, plus its user-info endpoint, which the
 *   SPEC's token flow calls from the browser (SPEC §7).
 * - Facebook SDK for JavaScript: loaded from connect.facebook.net; its dialogs and Graph calls go to
 *   *.facebook.com.
 * - Sign in with Apple JS: loaded from appleid.cdn-apple.com; its popup and frames are on appleid.apple.com.
 */
export function socialSignInCspSources(social: SocialConfig): CspSources {
  const sources: CspSources = { scriptSrc: [], frameSrc: [], connectSrc: [], styleSrc: [], imgSrc: [] };
  if (social.google) {
    sources.scriptSrc.push('https://accounts.google.com/gsi/client');
    sources.frameSrc.push('https://accounts.google.com/gsi/');
    sources.connectSrc.push(
      'https://accounts.google.com/gsi/',
      'https://www.googleapis.com',
      'https://openidconnect.googleapis.com',
    );
    sources.styleSrc.push('https://accounts.google.com/gsi/style');
  }
  if (social.facebook) {
    sources.scriptSrc.push('https://connect.facebook.net');
    sources.frameSrc.push('https://*.facebook.com');
    sources.connectSrc.push('https://*.facebook.com', 'https://connect.facebook.net');
    sources.imgSrc.push('https://*.facebook.com');
  }
  if (social.apple) {
    sources.scriptSrc.push('https://appleid.cdn-apple.com');
    sources.frameSrc.push('https://appleid.apple.com');
    sources.connectSrc.push('https://appleid.apple.com');
    sources.imgSrc.push('https://appleid.cdn-apple.com');
  }
  return sources;
}
