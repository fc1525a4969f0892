import { Outlet } from 'react-router';
import { useAuth } from '../lib/auth.tsx';
import { AppHeader } from './app-header.tsx';

export function AppLayout() {
  const { user } = useAuth();
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
