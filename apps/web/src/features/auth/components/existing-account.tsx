import { type SocialUserData, socialProviderNames } from '@waitlist/contract';
import { Link, Navigate, useNavigate } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { socialUserDataStorage } from '../../../lib/social-user-data.ts';
import { readSocialUserData } from '../../../lib/social-user-data-read.ts';
import { AuthLayout } from './auth-layout.tsx';
import { SocialIdentity } from './social-identity.tsx';

export { type ExistingAccountState, existingAccountState } from '../../../lib/existing-account-state.ts';

/**
 * SPEC §8: a social sign-in that the server refused because the account already exists (409) goes on to
 * /congratulations (Google) or /post-login-onboarding (Facebook) "with stored data". What the stored profile
 * is for there: saying whose account it is and leading to the way in that works, the password of that email
 * (prefilled on the login page), or resetting it, instead of a guard sending them back to a blank login.
 */
export function ExistingAccountScreen({ reason }: { reason: string }) {
  const stored = readSocialUserData();
  if (!stored) return <Navigate to="/login" replace />;
  return <ExistingAccount data={stored} reason={reason} />;
}

function ExistingAccount({ data, reason }: { data: SocialUserData; reason: string }) {
  const navigate = useNavigate();
  const providerName = socialProviderNames[data.provider];
  const withEmail = { state: { email: data.email } };
  const leave = (to: string) => {
    socialUserDataStorage.clear();
    navigate(to, withEmail);
  };
  return (
    <AuthLayout
      title="You already have an account"
      subtitle={`An account with this email already exists, so ${providerName} could not sign you in. Log in with its password to continue.`}
      footer={
        <Link to="/login" replace onClick={() => socialUserDataStorage.clear()}>
          Use a different way to log in
        </Link>
      }
    >
      <SocialIdentity data={data} />
      {reason ? <Alert tone="info">{reason}</Alert> : null}
      <div className="existing-account__actions">
        <Button block onClick={() => leave('/login')}>
          Log in with password
        </Button>
        <Button block variant="secondary" onClick={() => leave('/forgot-password')}>
          Forgot your password?
        </Button>
      </div>
    </AuthLayout>
  );
}
