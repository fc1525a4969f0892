import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useLocation, useNavigationType } from 'react-router';
import { LoadingScreen } from '../components/ui/loading-screen.tsx';
import { PHONE_MEDIA_QUERY, useToast } from '../components/ui/toast.tsx';
import { useAuth } from '../lib/auth.tsx';

/**
 * The signed-in header is its own chunk (issue 40): the sign-in screens never draw it, so a first visit to
 * /login does not download it. With a stored session it is fetched at once, beside the session check, and a
 * bar of its height holds its place, so nothing moves when it lands.
 */
const loadHeader = () => import('./app-header.tsx').then((module) => ({ default: module.AppHeader }));
const AppHeader = lazy(loadHeader);
try {
  if (localStorage.getItem('token')) void loadHeader();
} catch {
  // Storage refused (a private window's policy): the header loads when it is first drawn.
}

export function AppLayout() {
  const { user, status } = useAuth();
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  const { dismissStale } = useToast();
  // On a phone a toast takes much of the screen: it belongs to the page it answers and does not follow
  // the owner when they move on themselves (a link, Back). A redirect is not the owner moving on: the
  // app's own move (SPEC §4: "Account verified successfully!" shows 5 s, across the redirect to
  // /congratulations 1.5 s later) keeps its toasts, as a wider screen always does.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on a change of page by design
  useEffect(() => {
    if (navigationType !== 'REPLACE' && window.matchMedia?.(PHONE_MEDIA_QUERY).matches) dismissStale();
  }, [pathname]);
  // A new page opens at its top (issue 39: after sending, the opening's page opened scrolled halfway, where
  // the form's button had been). Back and Forward (POP) keep the browser's own restored position.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on a change of page by design
  useEffect(() => {
    if (navigationType === 'POP') return;
    const page = document.scrollingElement ?? document.documentElement;
    page.scrollTop = 0;
    page.scrollLeft = 0;
  }, [pathname]);
  // While a stored session is checked, the loading screen stands alone: the header and the page then arrive
  // together, so nothing already on screen moves down under the header (layout shift, issue 16).
  if (status === 'loading') return <LoadingScreen />;
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {user ? (
        <Suspense fallback={<div className="app-header-placeholder" aria-hidden="true" />}>
          <AppHeader user={user} />
        </Suspense>
      ) : null}
      <main id="main" className={user ? 'app-main' : undefined} tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
