// Import boundaries, checked by `npm run check:imports` (part of `npm run check`) on resolved paths, so a
// rule holds however an import is spelled (`../b/b.repo.ts`, `../../features/b/b.repo.ts`, a re-export).
// Why these layers: docs/decisions/0013-the-texting-core.md. The proof that each rule catches what it says:
// scripts/check-imports.test.mjs, on the small tree in scripts/fixtures/boundaries/. Run it through
// scripts/check-imports.mjs: dependency-cruiser reads TypeScript with TypeScript 6's API, which that script
// lends it (scripts/lib/typescript6-for-depcruise.mjs); a bare `depcruise` would read no .ts file at all.
const { join } = require('node:path');

const server = '^apps/server/src/';
// Tests may reach across features and into the composition root (app.ts builds the app they drive).
const testFiles = ['\\.test\\.tsx?$', '\\.test-helpers\\.ts$', `${server}test/`];
const feature = `${server}features/([^/]+)/`;
// app.ts builds the app from composition.ts (the services) and routes.ts (the route plugins).
const compositionRoot = `${server}(app|composition|routes|wiring|main)\\.ts$`;
const schema = `${server}db/schema(\\.ts$|/)`;
const decision = 'docs/decisions/0013-the-texting-core.md';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'feature-imports-another-feature',
      severity: 'error',
      comment: `A server feature does not import another feature's internals (repos, routes, helpers, workers): take a narrow dependency wired in app.ts. Only a type-only import (import type) of another feature's *.service.ts or *.types.ts is allowed; code two features share belongs in lib/ (${decision}).`,
      from: { path: feature, pathNot: testFiles },
      to: {
        path: `${server}features/`,
        pathNot: [`${server}features/$1/`, `${server}features/[^/]+/[^/]+\\.(service|types)\\.ts$`],
      },
    },
    {
      name: 'feature-runs-another-feature-service',
      severity: 'error',
      comment: `A run-time import of another feature's service (a class, a function, a constant): take it injected from app.ts, import only types (import type) (${decision}).`,
      from: { path: feature, pathNot: testFiles },
      to: {
        path: `${server}features/[^/]+/[^/]+\\.(service|types)\\.ts$`,
        pathNot: `${server}features/$1/`,
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'not-to-composition-root',
      severity: 'error',
      comment: `app.ts (with composition.ts and routes.ts), wiring.ts and main.ts compose the server; nothing they compose imports them back: take what you need as a dependency passed in (${decision}).`,
      from: {
        path: `${server}(features|lib|jobs|outbox|providers|db|nonces|plugins)/`,
        pathNot: testFiles,
      },
      to: { path: compositionRoot },
    },
    {
      name: 'shared-code-imports-no-feature',
      severity: 'error',
      comment: `lib/, jobs/, outbox/, providers/, db/ and nonces/ sit below the features and import none: move the shared piece down here, or have the feature pass it in (${decision}).`,
      from: { path: `${server}(lib|jobs|outbox|providers|db|nonces)/`, pathNot: testFiles },
      to: { path: `${server}features/` },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: `An import cycle: modules that import each other at run time load half-initialised and cannot be read or tested one at a time. Move what both need into a third module (e.g. a types.ts) (${decision}).`,
      from: {},
      // A loop of type-only imports is erased at run time: a provider's index.ts holds its interface and
      // imports the drivers that name it (CONVENTIONS.md), so those loops are allowed.
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'only-repos-touch-schema',
      severity: 'error',
      comment: `Only a *.repo.ts reads or writes tables: move the query into the owning repo (docs/decisions/0008-one-home-per-table.md, ${decision}).`,
      from: {
        path: [`${server}features/`, `${server}providers/billing/`],
        pathNot: ['\\.repo\\.ts$', ...testFiles],
      },
      to: { path: schema },
    },
    {
      name: 'billing-provider-queries-in-repo',
      severity: 'error',
      comment:
        'Only a *.repo.ts builds queries on the local billing tables: move the query into local-billing.repo.ts.',
      from: { path: `${server}providers/billing/`, pathNot: ['\\.repo\\.ts$', ...testFiles] },
      to: { path: '(^|/)node_modules/drizzle-orm/' },
    },
    {
      name: 'web-not-to-server',
      severity: 'error',
      comment: 'The web app never imports the server: shared shapes live in @waitlist/contract.',
      from: { path: '^apps/web/' },
      to: { path: '^apps/server/' },
    },
    {
      name: 'web-feature-imports-another-feature',
      severity: 'error',
      comment:
        'Web features do not import each other: move what both need to components/, lib/ or @waitlist/contract.',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: { path: '^apps/web/src/features/', pathNot: '^apps/web/src/features/$1/' },
    },
    {
      name: 'contract-imports-nothing-of-ours',
      severity: 'error',
      comment:
        'The contract imports nothing of ours (only its npm packages, such as zod): both apps import it.',
      from: { path: '^packages/contract/' },
      to: { path: '^(apps|packages|e2e|scripts)/', pathNot: '^packages/contract/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment:
        'An import that does not resolve: the rules above cannot see where it goes (or the file is missing).',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: '(^|/)node_modules/' },
    // `import type` counts: it is how one feature names another's service, and the rules tell it apart.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: join(__dirname, 'tsconfig.base.json') },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types'],
      extensions: ['.ts', '.tsx', '.mjs', '.js', '.d.ts'],
    },
    cache: false,
  },
};
