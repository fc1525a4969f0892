import { useEffect } from 'react';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { startPrefetching } from './prefetch.ts';
import { AppProviders } from './providers.tsx';
import { routes } from './routes.tsx';

const router = createBrowserRouter(routes);

export function App() {
  useEffect(() => startPrefetching(routes), []);
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
