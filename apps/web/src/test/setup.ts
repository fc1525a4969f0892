import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  localStorage.clear();
  sessionStorage.clear();
  // Sign-in SDK <script>s a test added (the loader loads a URL again once its script is gone).
  for (const script of document.querySelectorAll('script[src]')) script.remove();
});
