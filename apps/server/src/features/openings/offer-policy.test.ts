import { describe, expect, it } from 'vitest';
import {
  AUTO_WAVES_WITHIN,
  automaticClaimWindow,
  automaticShape,
  type Candidate,
  fitsSlot,
  planOffers,
} from './offer-policy.ts';
import {
  type CustomerHistory,
  claimChance,
  emptyBusinessHistory,
  ordinal,
  rankCustomers,
  speedFactor,
} from './offer-ranking.ts';
import { inSendWindow, nextWindowOpens, sendDecision } from './send-window.ts';

/** The offer policy's pure parts (issue 26): who fits, quiet hours, the daily cap, the shape and the order. */

const rules = { sendFrom: '08:00', sendUntil: '20:00', dailyOfferCap: 3 };
const NY = 'America/New_York';
const LA = 'America/Los_Angeles';
const at = (iso: string) => new Date(iso);
const DAY = 86_400_000;

let next = 0;
function candidate(extra: Partial<Candidate> = {}): Candidate {
  next += 1;
  return {
    id: `c${next}`,
    position: next,
    createdAt: at('2026-11-01T12:00:00Z'),
    preferences: [],
    serviceId: null,
    staffId: null,
    timeZone: null,
    vip: false,
    pinned: false,
    ...extra,
  };
}

describe('who fits a slot', () => {
  const services = new Map([
    ['cut', 45],
    ['colour', 120],
  ]);
  const slot = { startsAt: at('2026-11-24T16:00:00Z'), durationMinutes: 60, staffId: 'maria', timeZone: NY };

  it('keeps a service that fits in the length and any-service entries; drops a longer service', () => {
    expect(fitsSlot(candidate({ serviceId: 'cut' }), slot, services)).toBe(true);
    expect(fitsSlot(candidate({ serviceId: null }), slot, services)).toBe(true);
    expect(fitsSlot(candidate({ serviceId: 'colour' }), slot, services)).toBe(false);
  });

  it('keeps the staff member’s own customers and those without a preference, not another stylist’s', () => {
    expect(fitsSlot(candidate({ staffId: 'maria' }), slot, services)).toBe(true);
    expect(fitsSlot(candidate({ staffId: null }), slot, services)).toBe(true);
    expect(fitsSlot(candidate({ staffId: 'jo' }), slot, services)).toBe(false);
    expect(fitsSlot(candidate({ staffId: 'maria' }), { ...slot, staffId: null }, services)).toBe(false);
  });

  it('still holds time preferences (Tuesday 11:00 in New York)', () => {
    const tuesdayMornings = [{ days: [2], from: '09:00', to: '12:00' }];
    const mondays = [{ days: [1], from: '09:00', to: '17:00' }];
    expect(fitsSlot(candidate({ preferences: tuesdayMornings }), slot, services)).toBe(true);
    expect(fitsSlot(candidate({ preferences: mondays }), slot, services)).toBe(false);
  });
});

describe('quiet hours in the customer’s time zone', () => {
  it('sends 8:00–20:00 local: 19:59 yes, 20:00 and 7:59 no, in New York and Los Angeles', () => {
    expect(inSendWindow(at('2026-11-24T00:59:00Z'), NY, rules)).toBe(true); // 19:59 EST
    expect(inSendWindow(at('2026-11-24T01:00:00Z'), NY, rules)).toBe(false); // 20:00 EST
    expect(inSendWindow(at('2026-11-24T12:59:00Z'), NY, rules)).toBe(false); // 07:59 EST
    expect(inSendWindow(at('2026-11-24T01:00:00Z'), LA, rules)).toBe(true); // 17:00 PST
    expect(inSendWindow(at('2026-11-24T15:59:00Z'), LA, rules)).toBe(false); // 07:59 PST
  });

  it('opens at 8:00 local on a daylight-saving day (New York, 8 March 2026: 8:00 is 12:00Z, not 13:00Z)', () => {
    // 2:00 EST becomes 3:00 EDT on 8 March; the night before is EST (UTC−5), the morning EDT (UTC−4).
    expect(nextWindowOpens(at('2026-03-08T03:00:00Z'), NY, rules).toISOString()).toBe(
      '2026-03-08T12:00:00.000Z',
    );
    // 1 November 2026: back to EST; 8:00 is 13:00Z.
    expect(nextWindowOpens(at('2026-11-01T05:00:00Z'), NY, rules).toISOString()).toBe(
      '2026-11-01T13:00:00.000Z',
    );
  });

  it('holds an evening alert until 8:00 when the slot is still ahead by more than the claim window', () => {
    const now = at('2026-11-24T02:00:00Z'); // 21:00 EST Monday
    const decision = sendDecision({
      now,
      startsAt: at('2026-11-24T16:00:00Z'), // 11:00 Tuesday
      timeZone: NY,
      rules,
      claimWindowMinutes: 30,
      contacts: [],
    });
    expect(decision).toEqual({ kind: 'hold', until: at('2026-11-24T13:00:00Z') });
  });

  it('skips the customer when the slot starts within one claim window of quiet hours ending', () => {
    const decision = sendDecision({
      now: at('2026-11-24T02:00:00Z'),
      startsAt: at('2026-11-24T13:20:00Z'), // 8:20 Tuesday, window 30 minutes
      timeZone: NY,
      rules,
      claimWindowMinutes: 30,
      contacts: [],
    });
    expect(decision).toEqual({ kind: 'skip', reason: 'quiet_hours' });
  });

  it('texts a Los Angeles customer at 17:00 their time while New York is quiet', () => {
    const base = { startsAt: at('2026-11-25T18:00:00Z'), rules, claimWindowMinutes: 10, contacts: [] };
    const now = at('2026-11-24T01:30:00Z');
    expect(sendDecision({ ...base, now, timeZone: LA })).toEqual({ kind: 'send' });
    expect(sendDecision({ ...base, now, timeZone: NY }).kind).toBe('hold');
  });

  it('keeps the owner’s narrower window (9:00–18:00)', () => {
    const narrow = { ...rules, sendFrom: '09:00', sendUntil: '18:00' };
    expect(inSendWindow(at('2026-11-24T13:30:00Z'), NY, narrow)).toBe(false); // 8:30
    expect(nextWindowOpens(at('2026-11-24T13:30:00Z'), NY, narrow).toISOString()).toBe(
      '2026-11-24T14:00:00.000Z',
    );
  });
});

describe('the daily cap', () => {
  const now = at('2026-11-24T17:00:00Z'); // 12:00 EST
  const base = { now, startsAt: at('2026-11-25T17:00:00Z'), timeZone: NY, rules, claimWindowMinutes: 10 };

  it('skips a customer who got 3 capped texts today, counting "it’s been filled" texts', () => {
    const today = [at('2026-11-24T14:00:00Z'), at('2026-11-24T15:00:00Z'), at('2026-11-24T16:00:00Z')];
    expect(sendDecision({ ...base, contacts: today })).toEqual({ kind: 'skip', reason: 'daily_cap' });
    expect(sendDecision({ ...base, contacts: today.slice(1) })).toEqual({ kind: 'send' });
  });

  it('counts per the customer’s own day: three texts yesterday evening do not count today', () => {
    const yesterday = [at('2026-11-23T22:00:00Z'), at('2026-11-23T23:00:00Z'), at('2026-11-24T00:30:00Z')];
    expect(sendDecision({ ...base, contacts: yesterday })).toEqual({ kind: 'send' });
  });
});

describe('the automatic shape', () => {
  it('gives a slot in 90 minutes a claim window of 10 minutes, and in 3 days one hour', () => {
    expect(automaticClaimWindow(90)).toBe(10);
    expect(automaticClaimWindow(30)).toBe(5);
    expect(automaticClaimWindow(3 * 24 * 60)).toBe(60);
  });

  it('texts everyone at once for a slot in 25 minutes, not for one in 40', () => {
    expect(new Set(automaticShape(25, [0.1, 0.1, 0.1, 0.1]).waveOf)).toEqual(new Set([1]));
    expect(Math.max(...automaticShape(40, [0.1, 0.1, 0.1, 0.1]).waveOf)).toBeGreaterThan(1);
  });

  it('asks a customer likely to claim alone (one at a time), and groups unlikely ones into bigger waves', () => {
    expect(automaticShape(24 * 60, [0.7, 0.6, 0.1, 0.1]).waveOf.slice(0, 2)).toEqual([1, 2]);
    // A wave closes once someone in it claims with a chance of AUTO_WAVE_TARGET: 2 customers at 10%, 6 at 3%.
    const likely = automaticShape(24 * 60, Array(20).fill(0.1)).waveOf;
    expect(likely.filter((wave) => wave === 1)).toHaveLength(2);
    const unlikely = automaticShape(24 * 60, Array(20).fill(0.03)).waveOf;
    expect(unlikely.filter((wave) => wave === 1)).toHaveLength(6);
  });

  it('fits every wave in three quarters of the lead time (the last takes everyone left)', () => {
    const waveOf = automaticShape(120, Array(30).fill(0.05)).waveOf;
    const most = Math.floor((120 * AUTO_WAVES_WITHIN) / automaticClaimWindow(120));
    expect(Math.max(...waveOf)).toBe(most);
    expect(waveOf.filter((wave) => wave === most).length).toBeGreaterThan(5);
  });
});

describe('the learned order', () => {
  const now = at('2026-11-24T17:00:00Z');
  const context = { leadMinutes: 24 * 60, hour: 12, now, claimWindowMinutes: 60 };
  const history = (
    offers: number,
    claims: number,
    extra: Partial<CustomerHistory> = {},
  ): CustomerHistory => ({
    offers,
    claims,
    replyMinutes: claims ? 4 : null,
    lastOfferedAt: new Date(now.getTime() - DAY),
    ...extra,
  });

  it('puts a customer who claims often first, a newcomer ahead of one who never claims', () => {
    const keen = { ...candidate(), history: history(4, 3) };
    const cold = { ...candidate(), history: history(8, 0) };
    const fresh = { ...candidate(), history: undefined };
    const ranked = rankCustomers([cold, fresh, keen], emptyBusinessHistory(), context);
    expect(ranked.map((r) => r.customer.id)).toEqual([keen.id, fresh.id, cold.id]);
    expect(ranked[0]!.reason).toBe('1st: claimed 3 of 4 offers, replies in ~4 min');
    expect(ranked[1]!.reason).toMatch(/^2nd: new: no offers yet/);
  });

  it('asks first, for a slot in 90 minutes, the one who answers within its 10-minute window', () => {
    const slow = { ...candidate(), history: history(4, 2, { replyMinutes: 120 }) };
    const fast = { ...candidate(), history: history(4, 2, { replyMinutes: 3 }) };
    const soon = { leadMinutes: 90, hour: 12, now, claimWindowMinutes: automaticClaimWindow(90) };
    const ranked = rankCustomers([slow, fast], emptyBusinessHistory(), soon);
    expect(ranked.map((r) => r.customer.id)).toEqual([fast.id, slow.id]);
    expect(speedFactor(fast.history, 10)).toBe(1.2);
    expect(speedFactor(slow.history, 10)).toBe(0.6);
    expect(speedFactor(undefined, 10)).toBe(1);
  });

  it('moves up the one who waited longest and was not offered lately', () => {
    const recent = { ...candidate({ createdAt: new Date(now.getTime() - 2 * DAY) }), history: history(2, 0) };
    const patient = {
      ...candidate({ createdAt: new Date(now.getTime() - 40 * DAY) }),
      history: history(2, 0, { lastOfferedAt: new Date(now.getTime() - 20 * DAY) }),
    };
    const ranked = rankCustomers([recent, patient], emptyBusinessHistory(), context);
    expect(ranked[0]!.customer.id).toBe(patient.id);
    expect(ranked[0]!.reason).toContain('waiting 40 days, not offered this week');
  });

  it('puts pinned customers first and weighs a VIP up', () => {
    const keen = { ...candidate(), history: history(4, 3) };
    const pinned = { ...candidate({ pinned: true }), history: history(5, 0) };
    const vip = { ...candidate({ vip: true }), history: history(4, 2) };
    const plain = { ...candidate(), history: history(4, 2) };
    const ranked = rankCustomers([plain, keen, vip, pinned], emptyBusinessHistory(), context);
    expect(ranked[0]!.customer.id).toBe(pinned.id);
    expect(ranked[0]!.reason).toMatch(/^1st: pinned first/);
    expect(ranked.findIndex((r) => r.customer.id === vip.id)).toBeLessThan(
      ranked.findIndex((r) => r.customer.id === plain.id),
    );
  });

  it('learns the business’s lead-time pattern: a business whose last-minute offers are taken rates them up', () => {
    const business = emptyBusinessHistory();
    business.offers = 200;
    business.claims = 20;
    business.byLead.under2h = { offers: 50, claims: 15 };
    const soon = claimChance(undefined, business, { leadMinutes: 60, hour: 12 });
    const later = claimChance(undefined, business, { leadMinutes: 3000, hour: 12 });
    expect(soon.mean).toBeGreaterThan(later.mean * 1.5);
  });

  it('writes ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '101st',
    ]);
  });
});

describe('the plan', () => {
  it('plans the fitting customers only, holds them for quiet hours and says when the first text goes', () => {
    const now = at('2026-11-24T02:00:00Z'); // 21:00 EST
    const customers = [candidate(), candidate({ serviceId: 'colour' }), candidate({ timeZone: LA })];
    const plan = planOffers({
      candidates: customers,
      slot: { startsAt: at('2026-11-24T19:00:00Z'), durationMinutes: 60, staffId: null, timeZone: NY },
      serviceMinutes: new Map([['colour', 120]]),
      choice: { mode: 'all' },
      rules,
      business: emptyBusinessHistory(),
      histories: new Map(),
      contacts: new Map(),
      now,
    });
    expect(plan.offers.map((o) => o.customer.id)).toEqual([customers[0]!.id, customers[2]!.id]);
    expect(plan.offers[0]!.decision).toEqual({ kind: 'hold', until: at('2026-11-24T13:00:00Z') });
    expect(plan.offers[1]!.decision).toEqual({ kind: 'send' }); // 18:00 in Los Angeles
    expect(plan.firstTextAt).toEqual(now);
    expect(plan.expectedTexts).toBeGreaterThan(2);
  });
});
