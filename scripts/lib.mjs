// Small helpers shared by the root scripts (start, dev, test). Plain Node: they run before any install.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

export function log(message) {
  console.log(`\x1b[36m›\x1b[0m ${message}`);
}

/** Runs a command with inherited output; resolves to its exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', ...options });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

export async function runOrExit(command, args, options) {
  const code = await run(command, args, options);
  if (code !== 0) process.exit(code);
}

/** Newest modification time of any file below the given paths (skips node_modules and dist). */
export function newestMtime(paths) {
  let newest = 0;
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stats = statSync(path);
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path)) {
        if (entry !== 'node_modules' && entry !== 'dist') visit(join(path, entry));
      }
    } else newest = Math.max(newest, stats.mtimeMs);
  };
  for (const path of paths) visit(path);
  return newest;
}

/**
 * Why node_modules does not match package-lock.json, or null when it does: every package the lock names is
 * installed at the locked version (npm's record of what it installed, node_modules/.package-lock.json, and
 * the package's own folder). Platform binaries the lock lists as optional may be absent. File times are
 * not trusted: a node_modules left by another lock file can be newer than this one and still be wrong.
 */
export function installMismatch() {
  const hiddenLock = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(hiddenLock)) return 'node_modules is missing';
  const locked = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages ?? {};
  const installed = JSON.parse(readFileSync(hiddenLock, 'utf8')).packages ?? {};
  for (const [path, entry] of Object.entries(locked)) {
    if (!path.includes('node_modules/')) continue; // the root and the workspaces themselves
    const have = installed[path];
    const onDisk = existsSync(join(root, path, 'package.json'));
    if (!have || !onDisk) {
      if (entry.optional || entry.devOptional) continue;
      return `${path.replace(/^.*node_modules\//, '')} is not installed`;
    }
    if (entry.link ? have.resolved !== entry.resolved : have.version !== entry.version) {
      return `${path.replace(/^.*node_modules\//, '')} is ${have.version ?? have.resolved}, the lock says ${entry.version ?? entry.resolved}`;
    }
  }
  return null;
}

/** Installs dependencies when node_modules does not match package-lock.json (see installMismatch). */
export async function ensureInstall() {
  const mismatch = installMismatch();
  if (!mismatch) return;
  // `npm install` honours package-lock.json just as `npm ci` would; `npm ci` is avoided because npm 11
  // rejects a lock that records only this platform's optional binaries (biome, esbuild).
  log(`Installing dependencies (npm install): ${mismatch}…`);
  await runOrExit('npm', ['install', '--no-audit', '--no-fund']);
}

const webSources = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/public',
  'apps/web/vite.config.ts',
  'packages/contract/src',
];

/** Whether apps/web/dist is newer than every source it is built from. */
export function webBuildIsCurrent() {
  const built = join(root, 'apps/web/dist/index.html');
  return existsSync(built) && statSync(built).mtimeMs >= newestMtime(webSources.map((p) => join(root, p)));
}

/** Builds the web app unless apps/web/dist is newer than every source it is built from. */
export async function ensureWebBuild({ force = false } = {}) {
  if (!force && webBuildIsCurrent()) return;
  log('Building the web app…');
  await runOrExit('npm', ['run', 'build', '-w', 'apps/web']);
}

/** Debian's Chromium drives the end-to-end tests; never a downloaded browser. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function ensureChromium() {
  if (existsSync(chromiumPath)) return;
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (!isRoot || !hasApt) {
    console.error(
      `Chromium not found at ${chromiumPath}. Install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH.`,
    );
    process.exit(1);
  }
  log('Installing Debian chromium for the end-to-end tests (apt-get)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await runOrExit('apt-get', ['update', '-qq'], { env });
  await runOrExit('apt-get', ['install', '-y', '-qq', 'chromium', 'fonts-liberation'], { env });
}

/**
 * A Debian package a test suite starts its own server from (radicale for CalDAV, pgbouncer for the pooler
 * test): found on the machine, or installed with apt-get when running as root; otherwise the run stops and
 * says what to install. Debian's packages start no service here (no init in a container).
 */
async function ensureDebianPackage(name, binaries, why) {
  const onPath = spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
  if (onPath || binaries.some((binary) => existsSync(binary))) return;
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (!isRoot || !hasApt) {
    console.error(`${name} not found: ${why}. Install Debian's ${name} (apt-get install -y ${name}).`);
    process.exit(1);
  }
  log(`Installing Debian ${name} (apt-get): ${why}…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if ((await run('apt-get', ['install', '-y', '-qq', name], { env })) === 0) return;
  await runOrExit('apt-get', ['update', '-qq'], { env });
  const code = await run('apt-get', ['install', '-y', '-qq', name], { env });
  if (code !== 0) {
    console.error(`Could not install ${name} with apt-get (see above); ${why}.`);
    process.exit(code);
  }
}

/** Debian's radicale is the real CalDAV server the calendar tests sync against (issue 29). */
export const ensureRadicale = () =>
  ensureDebianPackage('radicale', ['/usr/bin/radicale'], 'the CalDAV tests need a real CalDAV server');

/** Debian's pgbouncer, for the test that runs the API behind a transaction-mode pooler (issue 40). */
export const ensurePgbouncer = () =>
  ensureDebianPackage(
    'pgbouncer',
    ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'],
    'the PgBouncer test runs the API behind a real transaction-mode pooler',
  );

/** Builds the server into apps/server/dist unless its build hash matches its sources (scripts/build-server.mjs). */
export async function ensureServerBuild({ force = false } = {}) {
  const { buildServer, serverBuildIsCurrent } = await import('./build-server.mjs');
  if (!force && serverBuildIsCurrent()) return;
  log('Building the server…');
  await buildServer({ force: true });
}

/** How production runs the server, built (ensureServerBuild): [command, args], from the repository root. */
export function serverCommand() {
  return [process.execPath, ['apps/server/dist/main.js']];
}
