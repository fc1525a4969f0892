/** Time is a dependency, so tests move it instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can move forward, or set to an hour of the day (quiet hours, daily caps). */
export function createManualClock(
  start = new Date(),
): Clock & { advance(ms: number): void; set(instant: Date): void } {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
    set: (instant) => {
      current = instant.getTime();
    },
  };
}
