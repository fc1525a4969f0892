import { percentile } from '../bench/stats.ts';
import type { RunResult } from './engine.ts';

/** The figures of one strategy's run, as the table prints them. */

const MINUTE = 60_000;
const DAY = 86_400_000;

export interface Figures {
  label: string;
  openings: number;
  /** Share of openings filled before they started. */
  fillRate: number;
  medianMinutesToFill: number;
  p90MinutesToFill: number;
  alertsPerOpening: number;
  /** Alerts and "it's been filled" texts per filled slot. */
  textsPerFill: number;
  filledTextsPerFill: number;
  optOuts: number;
  optOutsPer1000Texts: number;
  /** Share of the customers on the list during the period who got a slot. */
  servedShare: number;
  /** The longest anyone waited on the list without a slot (joined until booked, gave up or the end). */
  longestWaitDays: number;
  /** The longest a waiting customer fit openings and was not texted for any of them. */
  longestPassedOverDays: number;
  /** YES replies (in time or too late) per alert: the calibration against Epic's 8.3–11%. */
  acceptedShare: number;
}

/**
 * The longest a customer was passed over: from the first opening they fit (still waiting when it closed) and
 * were not texted for, to the last such opening before their next alert.
 */
function longestPassedOver(result: RunResult): number {
  const since = new Map<number, number>();
  let longest = 0;
  for (const outcome of result.outcomes) {
    for (const customer of outcome.alerted) since.delete(customer);
    for (const customer of outcome.passedOver) {
      if (!since.has(customer)) since.set(customer, outcome.openedAt);
      longest = Math.max(longest, outcome.openedAt - since.get(customer)!);
    }
  }
  return longest;
}

/** The figures of one strategy, pooled over its runs (one per world). */
export function figuresOf(results: readonly RunResult[]): Figures {
  const outcomes = results.flatMap((r) => r.outcomes);
  const texts = results.flatMap((r) => r.ledger.texts);
  const states = results.flatMap((r) => r.ledger.states.filter((s) => s.sim.joinedAt < r.world.end));
  const filled = outcomes.filter((o) => o.filledAt !== null);
  const toFill = filled.map((o) => (o.filledAt! - o.openedAt) / MINUTE).sort((a, b) => a - b);
  const alerts = texts.filter((t) => t.kind === 'alert').length;
  const fills = Math.max(1, filled.length);
  let longestWait = 0;
  for (const result of results) {
    for (const state of result.ledger.states) {
      if (state.sim.joinedAt >= result.world.end) continue;
      const gaveUp = Math.min(state.endedAt ?? state.sim.leavesAt, state.sim.leavesAt, result.world.end);
      const until = state.status === 'booked' ? state.endedAt! : gaveUp;
      longestWait = Math.max(longestWait, until - state.sim.joinedAt);
    }
  }
  return {
    label: results[0]!.strategy.label,
    openings: outcomes.length,
    fillRate: filled.length / Math.max(1, outcomes.length),
    medianMinutesToFill: percentile(toFill, 50),
    p90MinutesToFill: percentile(toFill, 90),
    alertsPerOpening: alerts / Math.max(1, outcomes.length),
    textsPerFill: texts.length / fills,
    filledTextsPerFill: (texts.length - alerts) / fills,
    optOuts: results.reduce((sum, r) => sum + r.ledger.optOuts, 0),
    optOutsPer1000Texts:
      (1000 * results.reduce((sum, r) => sum + r.ledger.optOuts, 0)) / Math.max(1, texts.length),
    servedShare: states.filter((s) => s.status === 'booked').length / Math.max(1, states.length),
    longestWaitDays: longestWait / DAY,
    longestPassedOverDays: Math.max(...results.map(longestPassedOver)) / DAY,
    acceptedShare: results.reduce((sum, r) => sum + r.ledger.claims.length, 0) / Math.max(1, alerts),
  };
}

const percent = (value: number) => `${(100 * value).toFixed(1)}%`;
const fixed = (digits: number) => (value: number) => (Number.isFinite(value) ? value.toFixed(digits) : '–');

const columns: { title: string; cell: (f: Figures) => string }[] = [
  { title: 'strategy', cell: (f) => f.label },
  { title: 'filled', cell: (f) => percent(f.fillRate) },
  { title: 'median min to fill', cell: (f) => fixed(0)(f.medianMinutesToFill) },
  { title: 'p90 min to fill', cell: (f) => fixed(0)(f.p90MinutesToFill) },
  { title: 'texts / filled slot', cell: (f) => fixed(1)(f.textsPerFill) },
  { title: '"filled" texts / filled slot', cell: (f) => fixed(1)(f.filledTextsPerFill) },
  { title: 'opt-outs / 1,000 texts', cell: (f) => fixed(1)(f.optOutsPer1000Texts) },
  { title: 'customers served', cell: (f) => percent(f.servedShare) },
  { title: 'longest wait, days', cell: (f) => fixed(0)(f.longestWaitDays) },
  { title: 'longest passed over, days', cell: (f) => fixed(1)(f.longestPassedOverDays) },
  { title: 'alerts / opening', cell: (f) => fixed(1)(f.alertsPerOpening) },
  { title: 'offers accepted', cell: (f) => percent(f.acceptedShare) },
];

/** The figures as a Markdown table (it reads as well in a terminal as in docs/SIMULATION.md). */
export function table(figures: readonly Figures[]): string {
  const rows = [columns.map((c) => c.title), ...figures.map((f) => columns.map((c) => c.cell(f)))];
  const widths = columns.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    `| ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(rows[0]!), rule, ...rows.slice(1).map(line)].join('\n');
}

/** Passed over this long (four weeks of openings they fit, none offered) counts as starved. */
export const STARVED_AFTER_DAYS = 28;

/**
 * Whether the automatic policy meets issue 26's target against everyone at once: fills within 1 point, 40%
 * fewer texts per filled slot, fewer opt-outs (per 1,000 texts and in all), and no one starved (at least as
 * many customers served, and nobody passed over for STARVED_AFTER_DAYS).
 */
export function verdict(all: Figures, auto: Figures): { met: boolean; lines: string[] } {
  const fillGap = (auto.fillRate - all.fillRate) * 100;
  const fewerTexts = 1 - auto.textsPerFill / all.textsPerFill;
  const checks = [
    {
      ok: fillGap >= -1,
      text: `fills ${fillGap >= 0 ? '+' : ''}${fillGap.toFixed(1)} points vs everyone at once (target ≥ −1)`,
    },
    {
      ok: fewerTexts >= 0.4,
      text: `sends ${(100 * fewerTexts).toFixed(0)}% fewer texts per filled slot (target ≥ 40%)`,
    },
    {
      ok: auto.optOutsPer1000Texts < all.optOutsPer1000Texts && auto.optOuts < all.optOuts,
      text: `opt-outs ${auto.optOutsPer1000Texts.toFixed(1)} vs ${all.optOutsPer1000Texts.toFixed(1)} per 1,000 texts, ${auto.optOuts} vs ${all.optOuts} in all (target: fewer)`,
    },
    {
      ok: auto.servedShare >= all.servedShare - 0.01 && auto.longestPassedOverDays < STARVED_AFTER_DAYS,
      text: `serves ${percent(auto.servedShare)} vs ${percent(all.servedShare)} of customers; passed over at most ${auto.longestPassedOverDays.toFixed(1)} days (target: no one starved, i.e. under ${STARVED_AFTER_DAYS})`,
    },
  ];
  return {
    met: checks.every((c) => c.ok),
    lines: checks.map((c) => `${c.ok ? '✔' : '✘'} automatic ${c.text}`),
  };
}
