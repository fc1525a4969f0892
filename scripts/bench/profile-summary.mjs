/**
 * Summarises a V8 CPU profile (`.cpuprofile`, from `node --cpu-prof` or BENCH_PROFILE): self time by
 * function and by where the code lives (a package in node_modules, the app's sources, node's internals),
 * largest first. `node scripts/bench/profile-summary.mjs <file.cpuprofile> [rows]`.
 */
import { readFileSync } from 'node:fs';

const [file, rowsArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/bench/profile-summary.mjs <file.cpuprofile> [rows]');
  process.exit(2);
}
const rows = Number(rowsArg ?? 30);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfUs = new Map();
const deltas = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i += 1) {
  const id = profile.samples[i];
  selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i] ?? 0));
}

/** Where a function's code lives: a package, the app (apps/…, packages/…), node itself, or V8's own. */
function placeOf(url) {
  if (!url) return '(v8/native)';
  if (url.startsWith('node:')) return 'node:internal';
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1];
  const app = url.match(/\/(apps\/[^/]+|packages\/[^/]+)\//);
  return app ? app[1] : url;
}

const byFunction = new Map();
const byPlace = new Map();
let total = 0;
for (const [id, us] of selfUs) {
  const { callFrame } = byId.get(id);
  const name = callFrame.functionName || '(anonymous)';
  const where = callFrame.url
    ? `${callFrame.url.replace(/^.*\/(node_modules|src)\//, '$1/')}:${callFrame.lineNumber + 1}`
    : '';
  const key = `${name} ${where}`.trim();
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  const place = ['(idle)', '(program)', '(garbage collector)'].includes(name) ? name : placeOf(callFrame.url);
  byPlace.set(place, (byPlace.get(place) ?? 0) + us);
  total += us;
}
const show = (title, map) => {
  console.log(`\n${title} (of ${(total / 1000).toFixed(0)} ms sampled)`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    console.log(
      `${(us / 1000).toFixed(1).padStart(9)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}`,
    );
  }
};
show('self time by place', byPlace);
show('self time by function', byFunction);
