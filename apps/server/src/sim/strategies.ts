import type { Strategy } from './engine.ts';

/** The owner's choices compared (issue 26): by hand in list order, and the automatic policy. */
export const strategies: readonly Strategy[] = [
  { key: 'all', label: 'everyone at once, list order', choice: { mode: 'all' } },
  {
    key: 'waves',
    label: 'waves of 5 every 15 min, list order',
    choice: { mode: 'waves', waveSize: 5, claimWindowMinutes: 15 },
  },
  {
    key: 'one',
    label: 'one at a time, 10 min each, list order',
    choice: { mode: 'waves', waveSize: 1, claimWindowMinutes: 10 },
  },
  { key: 'auto', label: 'automatic', choice: { mode: 'auto' } },
];
