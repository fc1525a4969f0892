import type { User } from '@waitlist/contract';
import { lazy, Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { LoadingScreen } from '../components/ui/loading-screen.tsx';
import { useAuth } from '../lib/auth.tsx';
import { existingAccountState } from '../lib/existing-account-state.ts';

/**
 * How far into onboarding a page needs the user to be (SPEC §2 "Guard rules ... in order"):
 * login → verified → business details submitted (full) → admin.
 */
export type GuardLevel = 'login' | 'verified' | 'full' | 'admin';

const businessDone = (user: User) =>
  user.businessVerification.status === 'approved' || user.businessVerification.status === 'submitted';

/** Where the user must go instead, or null when the page may show. */
export function guardRedirect(level: GuardLevel, user: User | null): string | null {
  if (!user) return '/login';
  if (level === 'login') return null;
  if (!user.verified) return '/verify-account';
  if (level === 'verified') return null;
  if (!businessDone(user)) return '/congratulations';
  if (level === 'admin' && !user.admin) return '/';
  return null;
}

const ExistingAccountScreen = lazy(() =>
  import('../features/auth/components/existing-account.tsx').then((m) => ({
    default: m.ExistingAccountScreen,
  })),
);

export function Guard({ level }: { level: GuardLevel }) {
  const { status, user } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <LoadingScreen />;
  const existing = existingAccountState(location);
  if (!user && location.pathname === '/congratulations' && existing) {
    // SPEC §8: Google's sign-in of an existing account failed and came here with the stored profile: the way
    // back in (its password), not a blank login page.
    return (
      <Suspense fallback={<LoadingScreen />}>
        <ExistingAccountScreen reason={existing.reason} />
      </Suspense>
    );
  }
  const redirect = guardRedirect(level, user);
  if (redirect) {
    // Remember where a signed-out visitor was heading, to return there after login.
    const state = redirect === '/login' ? { from: `${location.pathname}${location.search}` } : undefined;
    return <Navigate to={redirect} replace state={state} />;
  }
  return <Outlet />;
}

/** Pages for visitors only (login, register, password reset): logged-in users go elsewhere. */
export function PublicOnly({ redirectTo }: { redirectTo: string }) {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <LoadingScreen />;
  if (status === 'authenticated') {
    const from = (location.state as { from?: unknown } | null)?.from;
    const target = redirectTo === '/' && typeof from === 'string' && from.startsWith('/') ? from : redirectTo;
    return <Navigate to={target} replace />;
  }
  return <Outlet />;
}
