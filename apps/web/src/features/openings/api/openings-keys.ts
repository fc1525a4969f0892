/** Query keys of the openings feature. */
export const openingsKeys = {
  all: ['openings'] as const,
  list: ['openings', 'list'] as const,
  detail: (id: string) => ['openings', 'detail', id] as const,
};

/** How often an open alert's status is read again (sent, delivered, replies, winner). */
export const LIVE_POLL_MS = 3000;
