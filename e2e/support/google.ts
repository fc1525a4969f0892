import type { Page } from '@playwright/test';
import { identityURL } from './identity.ts';

export const GSI_CLIENT_URL = 'https://accounts.google.com/gsi/client';
/** Under the /gsi/ path Google's CSP sources already allow, so the page may call it like Google's own. */
const SIGN_URL = 'https://accounts.google.com/gsi/e2e-sign';

export interface GoogleAccount {
  /** The client id the token is issued to; by default the one the page initialised GIS with. */
  aud?: string;
  sub: string;
  email: string;
  given_name: string;
  family_name: string;
}

/**
 * A small stand-in for Google Identity Services, served in place of accounts.google.com/gsi/client: it
 * implements google.accounts.id.initialize / renderButton / prompt, and its button, when clicked, gets an
 * ID token for the signed-in test account and hands it to the page's callback as `credential`, like the
 * real popup does.
 */
const fakeGoogleIdentityServices = `(() => {
  let config = null;
  const signIn = async () => {
    const response = await fetch(${JSON.stringify(SIGN_URL)} + '?client_id=' + encodeURIComponent(config.client_id));
    const { credential } = await response.json();
    config.callback({ credential, select_by: 'btn' });
  };
  window.google = { accounts: { id: {
    initialize(options) { config = options; },
    renderButton(parent, options) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Continue with Google';
      button.dataset.fakeGis = 'true';
      button.style.cssText = 'width:' + (options.width || 240) + 'px;height:40px;border:1px solid #dadce0;' +
        'border-radius:4px;background:#fff;color:#3c4043;font:500 14px Roboto,Arial,sans-serif;cursor:pointer';
      button.addEventListener('click', () => { if (config) void signIn(); });
      parent.append(button);
    },
    prompt() {},
  } } };
})();`;

/**
 * Serves the stand-in GIS script and answers its token request from the local identity server, signed
 * with the key the app server trusts (GOOGLE_JWKS_URL). `account()` says who is signed in to "Google".
 */
export async function serveFakeGoogle(page: Page, account: () => GoogleAccount) {
  await page.route(GSI_CLIENT_URL, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: fakeGoogleIdentityServices }),
  );
  await page.route(`${SIGN_URL}?**`, async (route) => {
    const clientId = new URL(route.request().url()).searchParams.get('client_id');
    const signed = await fetch(`${identityURL}/sign`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ aud: clientId, ...account() }),
    });
    await route.fulfill({
      status: signed.status,
      headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*' },
      body: await signed.text(),
    });
  });
}
