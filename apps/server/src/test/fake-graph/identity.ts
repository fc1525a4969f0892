import { type Answer, type GraphState, oauthError, randomToken } from './state.ts';

/**
 * The identity platform's v2.0 token endpoint: the authorization-code grant (a one-use code for its
 * redirect URI) and the refresh-token grant; a refresh token only when offline_access was granted.
 */
export function tokenGrant(state: GraphState, form: URLSearchParams): Answer {
  const { fake } = state;
  if (form.get('client_id') !== fake.clientId || form.get('client_secret') !== fake.clientSecret)
    return oauthError(401, 'invalid_client', 'AADSTS7000215: Invalid client secret provided.');
  let scope: string;
  if (form.get('grant_type') === 'authorization_code') {
    const code = state.codes.get(form.get('code') ?? '');
    state.codes.delete(form.get('code') ?? '');
    if (!code || code.redirectUri !== form.get('redirect_uri'))
      return oauthError(
        400,
        'invalid_grant',
        'AADSTS70000: The provided authorization code is invalid or expired.',
      );
    scope = code.scope;
  } else if (form.get('grant_type') === 'refresh_token') {
    const known = state.refreshTokens.get(form.get('refresh_token') ?? '');
    if (known === undefined)
      return oauthError(400, 'invalid_grant', 'AADSTS700082: The refresh token has expired or was revoked.');
    scope = known;
  } else return oauthError(400, 'unsupported_grant_type', 'AADSTS70003: The grant type is not supported.');
  const access = randomToken();
  state.accessTokens.add(access);
  const answer: Record<string, unknown> = {
    token_type: 'Bearer',
    scope: scope.replace(/\boffline_access\b\s*/, '').trim(),
    expires_in: 3600,
    ext_expires_in: 3600,
    access_token: access,
  };
  if (scope.split(' ').includes('offline_access')) {
    const refresh = randomToken();
    state.refreshTokens.set(refresh, scope);
    answer.refresh_token = refresh;
  }
  return { status: 200, body: answer };
}
