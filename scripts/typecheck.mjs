// `npm run typecheck`: every TypeScript project checked by TypeScript 7 (the `typescript` package), by its own
// path. `node_modules/.bin/tsc` is not reliable: @typescript/typescript6 (TypeScript 6's API, which
// dependency-cruiser reads, see check-imports.mjs) brings TypeScript 6 as `@typescript/old`, whose `tsc` can
// take the name, and TypeScript 6 checks the same projects three times slower (issue 40: 58 core-seconds
// against 20).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { root } from './lib.mjs';

const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
let failed = false;
for (const project of ['packages/contract', 'apps/server', 'apps/web', 'e2e']) {
  const { status } = spawnSync(process.execPath, [tsc, '-p', project, '--noEmit'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
