import { act } from '@testing-library/react';
import { vi } from 'vitest';

/**
 * Fakes only setTimeout/clearTimeout: the app's own delays (toasts, redirects) then wait for the
 * test, while promises, fetch bodies and React's scheduler keep running for real.
 *
 * Testing Library only recognises Jest's fake clock, and otherwise sleeps on the (now fake)
 * setTimeout after every user-event action; the `jest` stand-in lets it move the clock by 0 ms
 * instead. Its findBy/waitFor would move the clock 50 ms per poll, so use `settle` for timings.
 */
export function fakeTheClock() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
}

/** For `renderApp({ advanceTimers })`: lets user-event's own pauses pass when the clock is fake. */
export const advanceTimersIfFake = (ms: number) => {
  if (vi.isFakeTimers()) vi.advanceTimersByTime(ms);
};

const nextMacrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Lets in-flight work (fetch answers, React renders and effects) finish, without moving the fake
 * clock, until the assertion passes.
 */
export async function settle(assertion: () => void, { attempts = 50 } = {}) {
  for (let attempt = 0; ; attempt++) {
    await act(nextMacrotask);
    try {
      assertion();
      return;
    } catch (error) {
      if (attempt >= attempts) throw error;
    }
  }
}

/** Moves the fake clock on and lets whatever that set off render. */
export async function advance(ms: number) {
  await act(async () => {
    vi.advanceTimersByTime(ms);
  });
  await act(nextMacrotask);
}
