// `npm run check:imports` (part of `npm run check`): the import boundaries in .dependency-cruiser.cjs,
// checked by dependency-cruiser on the server, the contract and the web app; exits 1 on any violation.
// `cruise` is also what scripts/check-imports.test.mjs runs on its fixture tree.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const sources = ['apps/server/src', 'packages/contract/src', 'apps/web/src'];

/**
 * Runs dependency-cruiser's CLI with the repository's rules on `paths`, named from `cwd` as the rules
 * name them (apps/server/src/…). `outputType` 'err-long' prints each breach with its rule's advice; 'json'
 * prints the whole result.
 * `args` are more CLI options (e.g. --exclude). Resolves to the exit status and what it printed.
 */
export function cruise({ cwd = root, paths = sources, outputType = 'err-long', args = [] } = {}) {
  // The package exports its API only: its CLI sits two folders up from src/main/index.mjs.
  const depcruise = fileURLToPath(
    new URL('../../bin/dependency-cruise.mjs', import.meta.resolve('dependency-cruiser')),
  );
  const child = spawn(
    process.execPath,
    [
      '--import',
      join(root, 'scripts/lib/typescript6-for-depcruise.mjs'),
      depcruise,
      ...paths,
      '--config',
      join(root, '.dependency-cruiser.cjs'),
      '--output-type',
      outputType,
      ...args,
    ],
    { cwd },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const { status, stdout, stderr } = await cruise();
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  // A dependency-cruiser that cannot read TypeScript reads no module and finds nothing: that is no pass.
  const modules = Number(/\((\d+) modules/.exec(stdout)?.[1] ?? 0);
  if (status === 0 && modules < 100) {
    console.error(
      `check:imports read ${modules} modules: dependency-cruiser did not read the TypeScript sources.`,
    );
    process.exit(1);
  }
  console.log(
    status === 0
      ? `Import boundaries hold (${seconds} s).`
      : `Import boundaries broken (${seconds} s): each line above names the rule, the importer and the import; the rules and why: .dependency-cruiser.cjs.`,
  );
  process.exit(status === 0 ? 0 : 1);
}
