import { authMessages, screenMessages } from '@waitlist/contract';
import { type ReactNode, useEffect } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useAuth, useCurrentUser } from '../../../lib/auth.tsx';
import { useProfile } from '../api/get-profile.ts';
import { ChangePasswordSection } from '../components/change-password-form.tsx';
import { DeleteAccountSection } from '../components/delete-account-section.tsx';
import { PlanSummary } from '../components/plan-summary.tsx';
import { ProfileForm } from '../components/profile-form.tsx';
import { PushToggle } from '../components/push-toggle.tsx';
import { WeeklySummaryToggle } from '../components/weekly-summary-toggle.tsx';
import '../components/account.css';

export const accountTabs = ['information', 'plan', 'billing'] as const;
export type AccountTab = (typeof accountTabs)[number];

/** SPEC §2: ?tab= accepts only information, plan or billing; anything else shows information. */
export function parseAccountTab(value: string | null): AccountTab {
  return accountTabs.find((tab) => tab === value) ?? 'information';
}

type AccountPageProps = {
  /**
   * The Plan and Billing tabs belong to the billing feature; the router (app/) hands them in, so that
   * features never import each other.
   */
  planPanel: ReactNode;
  billingPanel: ReactNode;
  /** The guided start after onboarding (onboarding feature), shown above the information tab until done. */
  checklist?: ReactNode;
};

/**
 * The Calendar tab moved to Settings (issue 39); its old address, which Google's consent screen still returns
 * to with `pending` or `calendarError`, leads there with those kept.
 */
function calendarSettingsAddress(params: URLSearchParams): string | null {
  if (params.get('tab') !== 'calendar') return null;
  const rest = new URLSearchParams(params);
  rest.delete('tab');
  const query = rest.toString();
  return `/settings/calendar${query ? `?${query}` : ''}`;
}

export function AccountPage(props: AccountPageProps) {
  const [searchParams] = useSearchParams();
  const calendarAddress = calendarSettingsAddress(searchParams);
  if (calendarAddress) return <Navigate to={calendarAddress} replace />;
  return <AccountTabs {...props} />;
}

function AccountTabs({ planPanel, billingPanel, checklist }: AccountPageProps) {
  const user = useCurrentUser();
  const { setUser } = useAuth();
  const toast = useToast();
  const profile = useProfile();
  const [searchParams, setSearchParams] = useSearchParams();

  // The profile as the server holds it now; when it cannot be read, the form keeps what is known and says so.
  useEffect(() => {
    if (profile.data) setUser(profile.data);
  }, [profile.data, setUser]);
  useEffect(() => {
    if (profile.isError) toast.error(screenMessages.loadProfileFailed);
  }, [profile.isError, toast]);
  const tab = parseAccountTab(searchParams.get('tab'));

  const selectTab = (next: AccountTab) => {
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        params.set('tab', next);
        return params;
      },
      { replace: false },
    );
  };

  return (
    <div className="page account">
      <header className="split-header account__header">
        <div>
          <h1 className="page__title">My Account</h1>
          <p className="page__lead">
            {user.firstName} {user.lastName}
            {user.businessName ? ` · ${user.businessName}` : ''}
          </p>
        </div>
        {/* SPEC §2: the tab bar shows only this button; plan and billing open through ?tab=. */}
        <nav className="account__tabs" aria-label="Account sections">
          <button
            type="button"
            className="pill-button account__tab"
            aria-current={tab === 'information' ? 'page' : undefined}
            onClick={() => selectTab('information')}
          >
            Update My Information
          </button>
        </nav>
      </header>

      {tab === 'information' ? checklist : null}
      {tab === 'information' && profile.isError ? (
        <div className="account__profile-error">
          <Alert>{screenErrorMessage(profile.error, authMessages.fetchProfileFailed)}</Alert>
          <Button variant="secondary" onClick={() => profile.refetch()}>
            Try again
          </Button>
        </div>
      ) : null}
      {tab === 'information' ? (
        <div className="page-columns page-columns--main-aside">
          <div className="stack">
            <ProfileForm key={`${user.id}-${user.email}`} user={user} />
            {user.isExternalAuth ? null : <ChangePasswordSection />}
          </div>
          <aside className="stack">
            <PlanSummary user={user} />
            <PushToggle user={user} />
            <WeeklySummaryToggle user={user} />
          </aside>
        </div>
      ) : tab === 'plan' ? (
        // SPEC §2 Plan tab: ... Cancel My Plan; Delete My Account.
        <div className="account__panel">
          {planPanel}
          <DeleteAccountSection />
        </div>
      ) : (
        <div className="account__panel">{billingPanel}</div>
      )}
    </div>
  );
}
