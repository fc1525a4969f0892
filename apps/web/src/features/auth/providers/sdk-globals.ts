/**
 * The parts of the three sign-in SDKs this app calls, as they appear on `window` once their script
 * has run. Typed here by hand: the vendors publish no types we would want as dependencies.
 */

// Google Identity Services (https://developers.google.com/identity/gsi/web/reference/js-reference)
export type GoogleCredentialResponse = { credential?: string; select_by?: string };
export type GoogleIdConfiguration = {
  client_id: string;
  callback: (response: GoogleCredentialResponse) => void;
  ux_mode?: 'popup' | 'redirect';
  context?: 'signin' | 'signup' | 'use';
  auto_select?: boolean;
  itp_support?: boolean;
};
export type GoogleButtonConfiguration = {
  type?: 'standard' | 'icon';
  theme?: 'outline' | 'filled_blue' | 'filled_black';
  size?: 'large' | 'medium' | 'small';
  text?: 'signin_with' | 'signup_with' | 'continue_with' | 'signin';
  shape?: 'rectangular' | 'pill' | 'circle' | 'square';
  logo_alignment?: 'left' | 'center';
  width?: number;
  locale?: string;
};
export type GoogleAccountsId = {
  initialize: (config: GoogleIdConfiguration) => void;
  renderButton: (parent: HTMLElement, options: GoogleButtonConfiguration) => void;
  prompt: () => void;
};

// Facebook SDK for JavaScript (https://developers.facebook.com/docs/javascript/reference)
export type FacebookAuthResponse = { accessToken: string; userID: string; expiresIn?: number };
export type FacebookLoginResponse = {
  status: 'connected' | 'not_authorized' | 'unknown';
  authResponse: FacebookAuthResponse | null;
};
export type FacebookMe = {
  id?: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  error?: { message?: string };
};
export type FacebookSdk = {
  init: (options: { appId: string; version: string; cookie?: boolean; xfbml?: boolean }) => void;
  login: (
    callback: (response: FacebookLoginResponse) => void,
    options: { scope: string; auth_type?: 'rerequest' },
  ) => void;
  api: (path: string, params: { fields: string }, callback: (response: FacebookMe) => void) => void;
};

// Sign in with Apple JS (https://developer.apple.com/documentation/signinwithapplejs)
export type AppleSignInResponse = {
  authorization?: { id_token?: string; code?: string; state?: string };
  user?: { email?: string; name?: { firstName?: string; lastName?: string } };
};
export type AppleIdSdk = {
  auth: {
    init: (config: {
      clientId: string;
      scope: string;
      redirectURI: string;
      usePopup: boolean;
      nonce?: string;
      state?: string;
    }) => void;
    signIn: () => Promise<AppleSignInResponse>;
  };
};

type WindowWithSdks = Window & {
  google?: { accounts?: { id?: GoogleAccountsId } };
  FB?: FacebookSdk;
  AppleID?: AppleIdSdk;
};

const sdkWindow = () => window as WindowWithSdks;

export const sdkUrls = {
  google: 'https://accounts.google.com/gsi/client',
  facebook: 'https://connect.facebook.net/en_US/sdk.js',
  apple: 'https://appleid.cdn-apple.com/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js',
} as const;

export const FACEBOOK_API_VERSION = 'v25.0';

export const googleAccountsId = (): GoogleAccountsId | undefined => sdkWindow().google?.accounts?.id;
export const facebookSdk = (): FacebookSdk | undefined => sdkWindow().FB;
export const appleIdSdk = (): AppleIdSdk | undefined => sdkWindow().AppleID;
