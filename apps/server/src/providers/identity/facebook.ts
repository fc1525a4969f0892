import { createHmac } from 'node:crypto';
import type { SocialConfig } from '../../config.ts';
import { IdentityProofMissing, IdentityRejected, IdentityUnavailable } from './errors.ts';
import { asRecord, getJson, text } from './http.ts';
import type { IdentityProof, IdentityVerifier } from './index.ts';

type FacebookConfig = NonNullable<SocialConfig['facebook']>;

/** Facebook's proof that a call comes from the app's server: HMAC-SHA256 of the token with the app secret. */
export function appSecretProof(accessToken: string, appSecret: string): string {
  return createHmac('sha256', appSecret).update(accessToken).digest('hex');
}

/**
 * Facebook: the user access token is checked with the Graph API's debug_token call, authenticated as our
 * app, which must say the token is valid and was issued to our app; then /me gives the id, name and email,
 * asked with appsecret_proof so a stolen token cannot be replayed from elsewhere through our app.
 */
export function createFacebookIdentityVerifier(config: FacebookConfig): IdentityVerifier {
  const appToken = `${config.appId}|${config.appSecret}`;

  return {
    provider: 'facebook',
    async verify(proof: IdentityProof) {
      const accessToken = proof.accessToken;
      if (!accessToken) throw new IdentityProofMissing();

      const debug = await getJson(
        `${config.graphUrl}/debug_token?input_token=${encodeURIComponent(accessToken)}&access_token=${encodeURIComponent(appToken)}`,
        'Facebook debug_token',
      );
      // debug_token answers 200 even for a bad input token; an error status means it refused our app
      // credentials, which is the operator's problem to fix, not the user's.
      if (debug.status !== 200) {
        const detail = text(asRecord(asRecord(debug.body).error).message);
        throw new IdentityUnavailable(`Facebook debug_token answered ${debug.status}: ${detail}`);
      }
      const data = asRecord(asRecord(debug.body).data);
      if (data.is_valid !== true) throw new IdentityRejected('the token is invalid or has expired');
      if (text(data.app_id) !== config.appId)
        throw new IdentityRejected('the token was issued for another app');
      const userId = text(data.user_id);
      if (!userId) throw new IdentityRejected('the token is not a user token');

      const me = await getJson(
        `${config.graphUrl}/me?fields=id,first_name,last_name,email&access_token=${encodeURIComponent(accessToken)}&appsecret_proof=${appSecretProof(accessToken, config.appSecret)}`,
        'Facebook /me',
      );
      if (me.status !== 200) throw new IdentityRejected('the token is invalid or has expired');
      const profile = asRecord(me.body);
      if (text(profile.id) !== userId)
        throw new IdentityRejected('the token does not match the Facebook profile');
      const email = text(profile.email).toLowerCase();
      return {
        provider: 'facebook',
        subject: userId,
        email: email || null,
        // Facebook returns only an address its user has confirmed, and none otherwise.
        emailVerified: Boolean(email),
        firstName: text(profile.first_name),
        lastName: text(profile.last_name),
      };
    },
  };
}
