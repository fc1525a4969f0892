/**
 * `npm run chaos`: faults tried on real server processes, each reporting what was sent, lost and duplicated
 * (issue 17; figures in docs/RELIABILITY.md). Long-running, so not part of `npm test`. Everything runs on
 * this machine: a private PostgreSQL cluster (initdb, its own port; never the shared server), local Plivo and
 * SMTP servers, and the instances as plain processes.
 *
 *   npm run chaos                 every fault
 *   npm run chaos -- kill alert   only the faults whose name contains one of the words
 *   npm run chaos -- --pg-port=55441   the private cluster's port (default 55440)
 */
import { results, say, startCluster } from './harness.ts';
import { hostileFeed } from './hostile-feed.ts';
import { killDuringAlert, killUnderWriteLoad } from './kill-faults.ts';
import { postgresRestart } from './postgres-restart.ts';
import { providerOutage, stripeOutage } from './provider-outages.ts';

const args = process.argv.slice(2);
const PG_PORT = Number(args.find((arg) => arg.startsWith('--pg-port='))?.split('=')[1] ?? 55440);
const filters = args.filter((arg) => !arg.startsWith('--')).map((word) => word.toLowerCase());

const faults: [string, () => Promise<void>][] = [
  ['kill alert', killDuringAlert],
  ['provider 5xx', () => providerOutage('5xx')],
  ['provider hang', () => providerOutage('hang')],
  ['provider stripe', stripeOutage],
  ['postgres restart', postgresRestart],
  ['kill write pglite', () => killUnderWriteLoad('PGlite')],
  ['kill write postgres', () => killUnderWriteLoad('PostgreSQL')],
  ['hostile feed', hostileFeed],
];

say(`starting a private PostgreSQL cluster on 127.0.0.1:${PG_PORT}`);
const cluster = startCluster(PG_PORT);
const started = Date.now();
try {
  for (const [name, run] of faults) {
    if (filters.length && !filters.some((word) => name.includes(word))) continue;
    await run();
  }
} finally {
  cluster.destroy();
}
console.log(
  `\nnpm run chaos${filters.length ? ` -- ${filters.join(' ')}` : ''} · ${new Date().toISOString()} · ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
);
console.log('| fault | sent | lost | duplicated | notes |');
console.log('| --- | --- | --- | --- | --- |');
for (const r of results) {
  const known = r.expectedDuplicates
    ? ` (${r.expectedDuplicates} of them an email delivered again under its Message-ID)`
    : '';
  console.log(`| ${r.fault} | ${r.sent} | ${r.lost} | ${r.duplicated}${known} | ${r.notes} |`);
}
const bad = results.filter((r) => r.lost > 0 || r.duplicated > (r.expectedDuplicates ?? 0));
process.exit(bad.length ? 1 : 0);
