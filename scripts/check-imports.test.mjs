// Proof that the import rules in .dependency-cruiser.cjs catch each kind of breach and let the allowed
// imports through: dependency-cruiser runs, as `npm run check:imports` does, on the small tree in
// fixtures/boundaries/, where every `breaks-*` file breaks one rule. Run: node --test scripts/check-imports.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cruise } from './check-imports.mjs';

const fixture = fileURLToPath(new URL('fixtures/boundaries/', import.meta.url));
const server = 'apps/server/src/';

const cruiseFixture = (options) => cruise({ cwd: fixture, paths: ['apps', 'packages'], ...options });

async function violations() {
  const { stdout, stderr } = await cruiseFixture({ outputType: 'json' });
  assert.ok(stdout, `dependency-cruiser printed no result: ${stderr}`);
  const { summary, modules } = JSON.parse(stdout);
  const found = summary.violations.map(({ rule, from, to }) => `${rule.name}: ${from} → ${to}`);
  const advice = Object.fromEntries(summary.ruleSetUsed.forbidden.map((rule) => [rule.name, rule.comment]));
  return { errors: summary.error, found, modules, advice };
}

// Two runs at once (about 2 s each): what each rule reports on the whole fixture, and the check's verdict,
// as `npm run check:imports` gives it, on the fixture without its breaches.
const [broken, cleanCheck] = await Promise.all([
  violations(),
  cruiseFixture({ args: ['--exclude', '/breaks-'] }),
]);

const breaches = {
  "(a) a feature importing another feature's repo": `feature-imports-another-feature: ${server}features/a/breaks-imports-repo.ts → ${server}features/b/b.repo.ts`,
  '(b) the same by a detour path (../../features/b/b.repo.ts)': `feature-imports-another-feature: ${server}features/a/breaks-imports-repo-by-detour.ts → ${server}features/b/b.repo.ts`,
  '(c) a feature importing the composition root (wiring.ts, which re-exports that repo)': `not-to-composition-root: ${server}features/a/breaks-imports-wiring.ts → ${server}wiring.ts`,
  "(d) a run-time import of another feature's service class": `feature-runs-another-feature-service: ${server}features/a/breaks-runs-b-service.ts → ${server}features/b/b.service.ts`,
  '(e) lib/ importing a feature, even for a type': `shared-code-imports-no-feature: ${server}lib/breaks-imports-feature.ts → ${server}features/b/b.service.ts`,
  '(f) an import cycle': `no-circular: ${server}lib/breaks-cycle-one.ts → ${server}lib/breaks-cycle-two.ts`,
  '(g) a feature other than its repo reading a table from db/schema/': `only-repos-touch-schema: ${server}features/a/breaks-reads-schema.ts → ${server}db/schema/b.ts`,
  '(h) a web feature importing another web feature': `web-feature-imports-another-feature: apps/web/src/features/x/breaks-imports-feature-y.ts → apps/web/src/features/y/y-format.ts`,
  '(i) the web app importing the server': `web-not-to-server: apps/web/src/lib/breaks-imports-server.ts → ${server}features/b/b.service.ts`,
  '(j) the contract importing an app': `contract-imports-nothing-of-ours: packages/contract/src/breaks-imports-web.ts → apps/web/src/features/y/y-format.ts`,
};

for (const [breach, violation] of Object.entries(breaches)) {
  test(`reports ${breach}`, () => {
    assert.ok(broken.found.includes(violation), `expected "${violation}" among:\n${broken.found.join('\n')}`);
  });
}

test("tells a feature running another feature's service what to do instead", () => {
  assert.match(
    broken.advice['feature-runs-another-feature-service'],
    /take it injected from app\.ts, import only types/,
  );
});

test('fails the check, and reports nothing but the breaches', () => {
  assert.equal(broken.errors, Object.keys(breaches).length); // the check's exit status is this count
  assert.deepEqual([...broken.found].sort(), Object.values(breaches).sort());
});

test("allows a type-only import of another feature's service and types, tests, and a provider's type-only loop", () => {
  const allowed = [
    `${server}features/a/a.service.ts`,
    `${server}features/a/a.test.ts`,
    `${server}providers/thing/index.ts`,
    `${server}providers/thing/real.ts`,
  ];
  for (const file of allowed) {
    assert.ok(
      broken.modules.some((module) => module.source === file),
      `${file} was not cruised`,
    );
    assert.deepEqual(
      broken.found.filter((violation) => violation.includes(`: ${file} →`)),
      [],
    );
  }
  const serviceImport = broken.modules
    .find((module) => module.source === `${server}features/a/a.service.ts`)
    .dependencies.find((dependency) => dependency.resolved === `${server}features/b/b.service.ts`);
  assert.ok(
    serviceImport.dependencyTypes.includes('type-only'),
    'TypeScript was not read: no type-only import',
  );
});

test('passes a clean tree (the fixture without its breaks-* files)', () => {
  assert.equal(cleanCheck.status, 0, cleanCheck.stdout + cleanCheck.stderr);
  assert.match(cleanCheck.stdout, /no dependency violations found \((\d\d|[89]) modules/);
});
