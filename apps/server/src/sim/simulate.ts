import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type RunResult, runStrategy } from './engine.ts';
import { figuresOf, table, verdict } from './report.ts';
import { strategies } from './strategies.ts';
import { buildWorld, defaultWorldOptions } from './world.ts';

// `npm run simulate`: the product's offer policy (features/openings/offer-policy.ts, the same module the server
// runs) against simulated businesses over simulated weeks, every strategy over the same seeded worlds; prints
// one table. `-- --seed 7 --worlds 1 --weeks 4` changes the worlds; `-- --write` also records the table in
// docs/SIMULATION.md (between its simulate markers). The model and how to read the table: docs/SIMULATION.md.

const defaults = { seed: defaultWorldOptions.seed, worlds: 5, weeks: defaultWorldOptions.weeks };
const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: String(defaults.seed) },
    worlds: { type: 'string', default: String(defaults.worlds) },
    weeks: { type: 'string', default: String(defaults.weeks) },
    write: { type: 'boolean', default: false },
  },
});
const seed = Number(values.seed);
const worlds = Number(values.worlds);
const weeks = Number(values.weeks);
if (![seed, worlds, weeks].every(Number.isInteger) || worlds < 1 || weeks < 1) {
  console.error('simulate: --seed, --worlds and --weeks take whole numbers (worlds and weeks ≥ 1).');
  process.exit(2);
}

const started = performance.now();
const results = new Map<string, RunResult[]>(strategies.map((s) => [s.key, []]));
let openings = 0;
let customers = 0;
for (let i = 0; i < worlds; i += 1) {
  const world = buildWorld({ seed: seed + i, weeks });
  openings += world.openings.length;
  customers += world.customers.filter((c) => c.joinedAt < world.end).length;
  for (const strategy of strategies) results.get(strategy.key)!.push(runStrategy(world, strategy));
}
const figures = strategies.map((strategy) => figuresOf(results.get(strategy.key)!));
const seconds = ((performance.now() - started) / 1000).toFixed(1);

const changed = [
  seed !== defaults.seed ? ` --seed ${seed}` : '',
  worlds !== defaults.worlds ? ` --worlds ${worlds}` : '',
  weeks !== defaults.weeks ? ` --weeks ${weeks}` : '',
].join('');
const command = `npm run simulate${changed ? ` --${changed}` : ''}`;
const summary =
  `${worlds} simulated business${worlds === 1 ? '' : 'es'} (seeds ${seed}–${seed + worlds - 1}), ${weeks} weeks each ` +
  `from 2025-02-03 (America/Chicago, some customers in America/New_York): ${openings} openings, ` +
  `${customers} customers on the lists; ${seconds} s.`;
const byKey = new Map(strategies.map((s, i) => [s.key, figures[i]!]));
const { met, lines } = verdict(byKey.get('all')!, byKey.get('auto')!);
const output = [summary, '', table(figures), '', ...lines, met ? 'Target met.' : 'Target not met.'].join(
  '\n',
);
console.log(`$ ${command}\n${output}`);

if (values.write) {
  const path = new URL('../../../../docs/SIMULATION.md', import.meta.url);
  const doc = readFileSync(path, 'utf8');
  const block = `<!-- simulate:start -->\n\`\`\`\n$ ${command}\n${output}\n\`\`\`\n<!-- simulate:end -->`;
  if (!/<!-- simulate:start -->[\s\S]*<!-- simulate:end -->/.test(doc)) {
    console.error('docs/SIMULATION.md has no <!-- simulate:start --> … <!-- simulate:end --> markers.');
    process.exit(1);
  }
  writeFileSync(
    path,
    doc.replace(/<!-- simulate:start -->[\s\S]*<!-- simulate:end -->/, () => block),
  );
  console.log('Recorded in docs/SIMULATION.md.');
}
