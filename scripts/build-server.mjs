// Builds the server into apps/server/dist (issue 16): production runs plain JavaScript with `node`, no
// TypeScript compiled at run time. One esbuild bundle of apps/server/src, the contract's sources and the
// plain-JavaScript packages they import (fastify, zod, drizzle…): Node then reads and resolves one file
// instead of ~700, which took start-up to the first answer from ~950 to ~820 ms on a quiet machine. Packages
// that find files beside themselves (PGlite's WebAssembly, argon2's native binding, pino's worker threads,
// pg's optional native binding, piscina's own worker script) stay imports, loaded from node_modules as they are; so do the ones loaded
// only on first use (Stripe, PDF invoices, SMTP, Redis, web push). Code imported on demand stays a separate
// file, loaded only when used. Skipped when nothing that goes
// into the build changed: a hash of every input's content (sources, package files, the lock) is kept in
// dist/.build-hash, so a checkout, a branch switch or an install that keeps old mtimes still rebuilds.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const serverDir = join(root, 'apps/server');
export const serverDist = join(serverDir, 'dist');
export const serverEntry = join(serverDist, 'main.js');
const hashFile = join(serverDist, '.build-hash');
/**
 * Packages left to Node at run time (see the top): they read files relative to their own folder, load a
 * native binding, or are imported only on first use. Everything else from node_modules is bundled.
 */
const externalPackages =
  /^(@electric-sql\/pglite|argon2|pg|pg-native|pino|thread-stream|web-push|pdfkit|nodemailer|ioredis|stripe|rate-limiter-flexible|drizzle-kit|tsx|esbuild|piscina)(\/|$)/;
const inputs = [
  'apps/server/src',
  'apps/server/package.json',
  'packages/contract/src',
  'packages/contract/package.json',
  'package-lock.json',
  'scripts/build-server.mjs',
];

/** A hash of every file the build reads (tests and benchmarks included: cheap, and never wrong). */
export function serverSourceHash() {
  const hash = createHash('sha256');
  const visit = (path) => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path).sort()) visit(join(path, entry));
      return;
    }
    hash.update(relative(root, path));
    hash.update('\0');
    hash.update(readFileSync(path));
    hash.update('\0');
  };
  for (const input of inputs) visit(join(root, input));
  return hash.digest('hex');
}

export function serverBuildIsCurrent() {
  return (
    existsSync(serverEntry) && existsSync(hashFile) && readFileSync(hashFile, 'utf8') === serverSourceHash()
  );
}

export async function buildServer({ force = false } = {}) {
  if (!force && serverBuildIsCurrent()) return false;
  const hash = serverSourceHash();
  const esbuild = await import('esbuild');
  rmSync(serverDist, { recursive: true, force: true });
  try {
    await esbuild.build({
      // The calendar parser's worker thread (issue 38) is a file of its own, found beside the chunks.
      entryPoints: {
        main: join(serverDir, 'src/main.ts'),
        'ics-parse.worker': join(serverDir, 'src/features/calendar/ics-parse.worker.ts'),
      },
      outdir: serverDist,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20.19',
      sourcemap: true,
      // Every chunk beside main.js, one level below apps/server like src/, so paths made from
      // import.meta.url (src/paths.ts) mean the same in both.
      chunkNames: '[name]-[hash]',
      logLevel: 'warning',
      // Bundled CommonJS packages call require() for Node's built-in modules; an ES module has none.
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
      },
      plugins: [
        {
          name: 'some-packages-stay-external',
          setup(context) {
            context.onResolve({ filter: /^[^./]/ }, (args) =>
              args.path.startsWith('node:') || externalPackages.test(args.path)
                ? { path: args.path, external: true }
                : undefined,
            );
          },
        },
      ],
    });
  } finally {
    // esbuild answers through a service process; stop it, or it stays beside the server `npm start` runs.
    await esbuild.stop();
  }
  writeFileSync(hashFile, hash);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  const built = await buildServer({ force: process.argv.includes('--force') });
  console.log(
    built
      ? `Built the server into apps/server/dist in ${(performance.now() - started).toFixed(0)} ms`
      : 'The server build is up to date',
  );
}
