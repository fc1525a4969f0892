// The first screen's bundle budget (issue 16), run by `npm test` after the web build: the JavaScript that
// /login loads (entry, its static imports, the login page's chunk and its imports, from Vite's manifest),
// gzip-compressed as the server sends it, must stay within FIRST_SCREEN_BUDGET_BYTES. Exits 1 when over.
import { join } from 'node:path';
import { FIRST_SCREEN_BUDGET_BYTES, firstScreenJs } from './bench/bundle.mjs';
import { root } from './lib.mjs';

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const { files, raw, gzip, brotli } = firstScreenJs(join(root, 'apps/web/dist'));
const summary = `${files.length} files, ${kb(raw)} raw, ${kb(gzip)} gzip, ${kb(brotli)} brotli; budget ${kb(FIRST_SCREEN_BUDGET_BYTES)} gzip`;
if (gzip > FIRST_SCREEN_BUDGET_BYTES) {
  console.error(`✘ The first screen (/login) loads too much JavaScript: ${summary}.`);
  console.error(
    '  Load what /login does not need on demand (a lazy route, a dynamic import), or raise the budget',
  );
  console.error('  in scripts/bench/bundle.mjs with a reason in docs/BENCHMARKS.md.');
  for (const file of files) console.error(`  - ${file}`);
  process.exit(1);
}
console.log(`✔ First screen (/login) JavaScript within budget: ${summary}.`);
