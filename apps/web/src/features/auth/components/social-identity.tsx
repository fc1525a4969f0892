import { type SocialUserData, socialProviderNames } from '@waitlist/contract';
import type { ReactNode } from 'react';
import { AppleIcon, FacebookIcon, GoogleIcon } from './social-icons.tsx';

const providerIcons: Record<SocialUserData['provider'], ReactNode> = {
  google: <GoogleIcon />,
  facebook: <FacebookIcon />,
  apple: <AppleIcon />,
};

/** Who the provider said this is: its icon, the name and the email it shared (SPEC §3 social profile data). */
export function SocialIdentity({ data }: { data: SocialUserData }) {
  const providerName = socialProviderNames[data.provider];
  const name = [data.firstName, data.lastName].filter(Boolean).join(' ');
  return (
    <section className="social-identity" aria-label={`Your ${providerName} account`}>
      <span className="social-identity__icon">{providerIcons[data.provider]}</span>
      <div className="social-identity__text">
        <p className="social-identity__name">{name || `Your ${providerName} account`}</p>
        <p className="social-identity__email">
          {data.email ? <EmailAddress email={data.email} /> : 'No email shared'}
        </p>
      </div>
    </section>
  );
}

/** A long address (Apple's relay ones are) breaks after the @ before it breaks anywhere else. */
function EmailAddress({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at < 0) return email;
  return (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </>
  );
}
