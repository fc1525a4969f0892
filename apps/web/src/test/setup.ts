import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { resolveLazyRoutes } from '../app/prefetch.ts';
import { routes } from '../app/routes.tsx';

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
