import { DEFAULT_DAILY_OFFER_CAP, DEFAULT_SEND_WINDOW, type TimePreference } from '@waitlist/contract';
import { mulberry32 } from '../bench/stats.ts';
import type { Candidate, SendRules, Slot } from '../features/openings/offer-policy.ts';
import { wallClock, zonedToUtc } from '../lib/time-zone.ts';
import { type CustomerTraits, drawTraits } from './behaviour.ts';

/**
 * The simulated business (`npm run simulate`): its waiting customers (who join and lose patience over the
 * weeks, each with hidden habits: behaviour.ts) and its openings (cancellations), drawn once from a seed. Every
 * strategy runs over this same world: the same customers join at the same times, the same slots open.
 */

export const BUSINESS_ZONE = 'America/Chicago';
/** Some customers live an hour ahead: their quiet hours start at 19:00 in the business's zone. */
export const OTHER_ZONE = 'America/New_York';
const MINUTE = 60_000;
const DAY = 86_400_000;

export interface WorldOptions {
  seed: number;
  weeks: number;
  /** Customers already waiting when the simulation starts. */
  initialCustomers: number;
  /** Customers who join per day, on average. */
  joinsPerDay: number;
  /** Cancellations per business day (Monday to Saturday), on average. */
  openingsPerDay: number;
}

export const defaultWorldOptions: WorldOptions = {
  seed: 26,
  weeks: 12,
  initialCustomers: 70,
  joinsPerDay: 2.2,
  openingsPerDay: 2.5,
};

export interface SimCustomer {
  index: number;
  candidate: Candidate;
  joinedAt: number;
  /** When they give up waiting (found a slot elsewhere), if not served or opted out before. */
  leavesAt: number;
  /** Their time zone for quiet hours and their own hours. */
  zone: string;
  traits: CustomerTraits;
}

export interface SimOpening {
  index: number;
  id: string;
  openedAt: number;
  slot: Slot;
}

export interface World {
  options: WorldOptions;
  start: number;
  end: number;
  customers: SimCustomer[];
  openings: SimOpening[];
  serviceMinutes: ReadonlyMap<string, number>;
  staff: readonly string[];
  rules: SendRules;
}

/** A Monday in February: the twelve weeks cross the March daylight-saving change. */
const START = { year: 2025, month: 2, day: 3 };

export const services = new Map([
  ['cut', 30],
  ['colour', 90],
  ['treatment', 60],
]);
const staff = ['ana', 'ben', 'chloe'];
const slotLengths = [30, 45, 60, 60, 90, 120];

type Rng = () => number;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

/** Poisson-distributed count (Knuth), for joins and cancellations per day. */
function poisson(rng: Rng, mean: number): number {
  const limit = Math.exp(-mean);
  let product = rng();
  let count = 0;
  while (product > limit) {
    product *= rng();
    count += 1;
  }
  return count;
}

const weekdays = [1, 2, 3, 4, 5];
/** Those who say when they can come: after work, mornings, Saturdays or office hours. */
const preferenceKinds: TimePreference[][] = [
  [{ days: weekdays, from: '16:30', to: '20:00' }],
  [{ days: [0, 1, 2, 3, 4, 5, 6], from: '08:00', to: '12:00' }],
  [{ days: [6], from: '08:00', to: '20:00' }],
  [{ days: weekdays, from: '09:00', to: '17:00' }],
];

function drawCustomer(rng: Rng, index: number, joinedAt: number, leavesAt: number): SimCustomer {
  const otherZone = rng() < 0.15;
  const serviceRoll = rng();
  const serviceId = serviceRoll < 0.5 ? 'cut' : serviceRoll < 0.8 ? 'treatment' : 'colour';
  const candidate: Candidate = {
    id: `c${index}`,
    position: index + 1,
    createdAt: new Date(joinedAt),
    preferences: rng() < 0.35 ? pick(rng, preferenceKinds) : [],
    serviceId,
    staffId: rng() < 0.35 ? pick(rng, staff) : null,
    timeZone: otherZone ? OTHER_ZONE : null,
    vip: rng() < 0.03,
    pinned: false,
  };
  return {
    index,
    candidate,
    joinedAt,
    leavesAt,
    zone: otherZone ? OTHER_ZONE : BUSINESS_ZONE,
    traits: drawTraits(rng),
  };
}

/** Days a customer keeps waiting before they give up: exponential, 40 days on average. */
const patience = (rng: Rng) => -Math.log(1 - rng()) * 40 * DAY;

function drawCustomers(rng: Rng, options: WorldOptions, start: number, end: number): SimCustomer[] {
  const joins: number[] = [];
  // Those already waiting joined over the last six weeks.
  for (let i = 0; i < options.initialCustomers; i += 1) joins.push(start - rng() * 42 * DAY);
  joins.sort((a, b) => a - b);
  const initial = joins.length;
  for (let day = start; day < end; day += DAY) {
    const count = poisson(rng, options.joinsPerDay);
    for (let i = 0; i < count; i += 1) joins.push(day + (7 + rng() * 15) * 60 * MINUTE);
  }
  joins.sort((a, b) => a - b);
  return joins.map((joinedAt, index) => {
    // The customers waiting at the start are those whose patience has lasted until then.
    const from = index < initial ? start : joinedAt;
    return drawCustomer(rng, index, joinedAt, from + patience(rng));
  });
}

/** Lead time from 30 minutes to 3 days, log-uniform: as many same-hour as next-day cancellations. */
const drawLeadMinutes = (rng: Rng) => Math.exp(Math.log(30) + rng() * Math.log((3 * 24 * 60) / 30));

function drawOpenings(rng: Rng, options: WorldOptions, start: number, end: number): SimOpening[] {
  const openings: Omit<SimOpening, 'index' | 'id'>[] = [];
  // Slots up to three days past the end are drawn too, so the last days also see long-lead cancellations.
  for (let day = start; day < end + 3 * DAY; day += DAY) {
    const date = wallClock(new Date(day + 12 * 60 * MINUTE), BUSINESS_ZONE);
    if (date.weekday === 0) continue;
    const count = poisson(rng, options.openingsPerDay);
    for (let i = 0; i < count; i += 1) {
      const quarter = Math.floor(rng() * 38); // 9:00 to 18:15 local
      const startsAt = zonedToUtc(
        { ...date, hour: 9 + Math.floor(quarter / 4), minute: (quarter % 4) * 15 },
        BUSINESS_ZONE,
      ).getTime();
      let openedAt = startsAt - drawLeadMinutes(rng) * MINUTE;
      // Cancellations come in from 7:00 to midnight (a late-evening one meets quiet hours), rarely at night.
      while (wallClock(new Date(openedAt), BUSINESS_ZONE).hour < 7) {
        openedAt = startsAt - drawLeadMinutes(rng) * MINUTE;
      }
      const slot: Slot = {
        startsAt: new Date(startsAt),
        durationMinutes: pick(rng, slotLengths),
        staffId: pick(rng, staff),
        timeZone: BUSINESS_ZONE,
      };
      if (openedAt >= start && openedAt < end) openings.push({ openedAt, slot });
    }
  }
  openings.sort((a, b) => a.openedAt - b.openedAt);
  return openings.map((opening, index) => ({ ...opening, index, id: `o${index}` }));
}

/** The world of a seed: the same seed, the same customers and openings. */
export function buildWorld(overrides: Partial<WorldOptions> = {}): World {
  const options = { ...defaultWorldOptions, ...overrides };
  const rng = mulberry32(options.seed);
  const start = zonedToUtc(START, BUSINESS_ZONE).getTime();
  const end = start + options.weeks * 7 * DAY;
  const customers = drawCustomers(rng, options, start, end);
  const openings = drawOpenings(rng, options, start, end);
  return {
    options,
    start,
    end,
    customers,
    openings,
    serviceMinutes: services,
    staff,
    rules: {
      sendFrom: DEFAULT_SEND_WINDOW.from,
      sendUntil: DEFAULT_SEND_WINDOW.until,
      dailyOfferCap: DEFAULT_DAILY_OFFER_CAP,
    },
  };
}
