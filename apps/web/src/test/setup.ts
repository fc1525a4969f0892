import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, vi } from 'vitest';
import { resolveLazyRoutes } from '../app/prefetch.ts';
import { routes } from '../app/routes.tsx';

// `npm test` runs this suite beside the API suites and the journeys on two cores (issue 40): a wait that takes
// 100 ms alone can take seconds there. The time-out only catches a hang; what each wait asserts is unchanged.
configure({ asyncUtilTimeout: 5_000 });

// Pages are lazy chunks in the browser (issue 16); here they are loaded once, before any test renders them.
await resolveLazyRoutes(routes);

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  localStorage.clear();
  sessionStorage.clear();
  // Sign-in SDK <script>s a test added (the loader loads a URL again once its script is gone).
  for (const script of document.querySelectorAll('script[src]')) script.remove();
});

// Files share a worker's jsdom (vite.config.ts, issue 40): each starts at the same address with an empty page.
afterAll(() => {
  document.body.innerHTML = '';
  window.history.replaceState(null, '', '/');
});
