import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders, createQueryClient } from '../app/providers.tsx';
import { routes } from '../app/routes.tsx';
import { advanceTimersIfFake } from './clock.ts';

type RenderAppOptions = {
  /** Puts a login token in localStorage first, as a returning user would have. */
  token?: string;
  /** How user-event lets its pauses pass; by default it moves the clock when the clock is fake. */
  advanceTimers?: (ms: number) => unknown;
};

/** Renders the whole app (providers, guards, pages) at a path, the way a browser would open it. */
export function renderApp(path: string, { token, advanceTimers }: RenderAppOptions = {}) {
  if (token) localStorage.setItem('token', token);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createQueryClient();
  const defaults = queryClient.getDefaultOptions();
  queryClient.setDefaultOptions({
    queries: { ...defaults.queries, retry: false },
    mutations: { ...defaults.mutations, retry: false },
  });
  const user = userEvent.setup({ delay: null, advanceTimers: advanceTimers ?? advanceTimersIfFake });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  const location = () => `${router.state.location.pathname}${router.state.location.search}`;
  return { ...view, router, user, location, queryClient };
}
