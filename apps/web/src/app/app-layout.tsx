import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useToast } from '../components/ui/toast.tsx';
import { useAuth } from '../lib/auth.tsx';
import { AppHeader } from './app-header.tsx';

export function AppLayout() {
  const { user } = useAuth();
  const { pathname } = useLocation();
  const { dismissStale } = useToast();
  // Toasts belong to the page they answer: on the next page they would cover its title for nothing.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on a change of page by design
  useEffect(() => dismissStale(), [pathname]);
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
