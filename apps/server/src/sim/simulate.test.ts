import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import * as policy from '../features/openings/offer-policy.ts';
import { capDay, inSendWindow } from '../features/openings/send-window.ts';
import { type RunResult, runStrategy } from './engine.ts';
import { figuresOf } from './report.ts';
import { strategies } from './strategies.ts';
import { buildWorld } from './world.ts';

// The simulator's own invariants on a small seed (issue 26), not its figures: those are docs/SIMULATION.md's.

// The product's policy module itself, its decisions counted: the simulator must run it, not a copy.
vi.mock('../features/openings/offer-policy.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../features/openings/offer-policy.ts')>();
  return { ...real, planOffers: vi.fn(real.planOffers), sendDecision: vi.fn(real.sendDecision) };
});

const world = buildWorld({ seed: 7, weeks: 3 });
const runs: RunResult[] = strategies.map((strategy) => runStrategy(world, strategy));

describe.each(runs.map((run) => [run.strategy.label, run] as const))('simulated: %s', (_, run) => {
  const { ledger, outcomes } = run;

  it('sends no alert and no "it\'s been filled" text outside the send window in the customer\'s time zone', () => {
    expect(ledger.texts.length).toBeGreaterThan(0);
    const outside = ledger.texts.filter((text) => !inSendWindow(new Date(text.at), text.zone, world.rules));
    expect(outside).toEqual([]);
  });

  it('keeps every customer under the daily cap on each of their own days', () => {
    const perDay = new Map<string, number>();
    for (const text of ledger.texts) {
      const key = `${text.customer} ${capDay(new Date(text.at), text.zone)}`;
      perDay.set(key, (perDay.get(key) ?? 0) + 1);
    }
    expect(Math.max(...perDay.values())).toBeLessThanOrEqual(world.rules.dailyOfferCap);
  });

  it('has at most one winner per slot, texted before they claimed, and no claim once the slot has started', () => {
    const winners = new Map<number, number>();
    for (const claim of ledger.claims) {
      const opening = world.openings[claim.opening]!;
      expect(claim.at).toBeLessThan(opening.slot.startsAt.getTime());
      const alerted = ledger.texts.some(
        (t) => t.kind === 'alert' && t.customer === claim.customer && t.opening === claim.opening,
      );
      expect(alerted).toBe(true);
      if (claim.won) winners.set(claim.opening, (winners.get(claim.opening) ?? 0) + 1);
    }
    expect(winners.size).toBeGreaterThan(0);
    expect(Math.max(...winners.values())).toBe(1);
    expect(outcomes.filter((o) => o.filledAt !== null).length).toBe(winners.size);
  });

  it('sends "it\'s been filled" only to customers texted for that opening, after it was filled', () => {
    for (const text of ledger.texts.filter((t) => t.kind === 'filled')) {
      const filledAt = outcomes.find((o) => o.opening === text.opening)!.filledAt;
      expect(filledAt).toBe(text.at);
    }
  });
});

describe('the simulated world', () => {
  it('shows every strategy the same openings', () => {
    const seen = runs.map((run) => run.outcomes.map((o) => `${o.opening} ${o.openedAt} ${o.startsAt}`));
    expect(seen[0]!.length).toBe(world.openings.length);
    for (const other of seen.slice(1)) expect(other).toEqual(seen[0]);
  });

  it('is repeatable: the same seed, the same customers, openings and figures', () => {
    const again = buildWorld({ seed: 7, weeks: 3 });
    expect(again.openings.map((o) => [o.openedAt, o.slot])).toEqual(
      world.openings.map((o) => [o.openedAt, o.slot]),
    );
    expect(again.customers.map((c) => c.traits)).toEqual(world.customers.map((c) => c.traits));
    const auto = strategies.find((s) => s.key === 'auto')!;
    expect(figuresOf([runStrategy(again, auto)])).toEqual(
      figuresOf([runs.find((r) => r.strategy === auto)!]),
    );
  });
});

describe('the simulator runs the product’s offer policy', () => {
  it('plans every opening with features/openings/offer-policy.ts and decides each text with it', () => {
    const planOffers = vi.mocked(policy.planOffers);
    planOffers.mockClear();
    vi.mocked(policy.sendDecision).mockClear();
    const auto = runStrategy(world, strategies.find((s) => s.key === 'auto')!);
    expect(planOffers).toHaveBeenCalledTimes(world.openings.length);
    expect(planOffers.mock.calls[0]![0].choice).toEqual({ mode: 'auto' });
    expect(vi.mocked(policy.sendDecision).mock.calls.length).toBeGreaterThan(0);
    expect(auto.ledger.texts.length).toBeGreaterThan(0);
  });

  it('keeps no copy of the policy in src/sim', () => {
    const names = [
      'planOffers',
      'fitsSlot',
      'automaticShape',
      'sendDecision',
      'inSendWindow',
      'rankCustomers',
      'claimChance',
    ];
    const dir = new URL('./', import.meta.url);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      const source = readFileSync(new URL(file, dir), 'utf8');
      for (const name of names)
        expect(source, `${file} defines ${name}`).not.toMatch(new RegExp(`function ${name}\\b`));
    }
  });
});
