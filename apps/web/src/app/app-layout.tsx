import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { LoadingScreen } from '../components/ui/loading-screen.tsx';
import { PHONE_MEDIA_QUERY, useToast } from '../components/ui/toast.tsx';
import { useAuth } from '../lib/auth.tsx';
import { AppHeader } from './app-header.tsx';

export function AppLayout() {
  const { user, status } = useAuth();
  const { pathname } = useLocation();
  const { dismissStale } = useToast();
  // On a phone a toast takes much of the screen: it belongs to the page it answers and does not follow
  // the owner to the next one. A wider screen keeps it for its whole time (SPEC §4: the verification
  // banner shows 5 s, across the move to /congratulations).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on a change of page by design
  useEffect(() => {
    if (window.matchMedia?.(PHONE_MEDIA_QUERY).matches) dismissStale();
  }, [pathname]);
  // While a stored session is checked, the loading screen stands alone: the header and the page then arrive
  // together, so nothing already on screen moves down under the header (layout shift, issue 16).
  if (status === 'loading') return <LoadingScreen />;
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {user ? <AppHeader user={user} /> : null}
      <main id="main" className={user ? 'app-main' : undefined} tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
