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

/** Builds the web app unless apps/web/dist is newer than every source it is built from. */
export async function ensureWebBuild({ force = false } = {}) {
  const built = join(root, 'apps/web/dist/index.html');
  const sources = [
    'apps/web/src',
    'apps/web/index.html',
    'apps/web/public',
    'apps/web/vite.config.ts',
    'packages/contract/src',
  ];
  if (
    !force &&
    existsSync(built) &&
    statSync(built).mtimeMs >= newestMtime(sources.map((p) => join(root, p)))
  )
    return;
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

/** Debian's radicale is the real CalDAV server the calendar tests sync against (issue 29). */
export async function ensureRadicale() {
  const onPath = spawnSync('sh', ['-c', 'command -v radicale'], { stdio: 'ignore' }).status === 0;
  if (onPath || existsSync('/usr/bin/radicale')) return;
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (!isRoot || !hasApt) {
    console.error(
      "radicale not found: the CalDAV tests need a real CalDAV server. Install Debian's radicale (apt-get install -y radicale).",
    );
    process.exit(1);
  }
  log('Installing Debian radicale for the CalDAV tests (apt-get)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Debian's package starts no service here (no init in a container); the tests start their own radicale.
  if ((await run('apt-get', ['install', '-y', '-qq', 'radicale'], { env })) === 0) return;
  await runOrExit('apt-get', ['update', '-qq'], { env });
  const code = await run('apt-get', ['install', '-y', '-qq', 'radicale'], { env });
  if (code !== 0) {
    console.error('Could not install radicale with apt-get (see above); the CalDAV tests need it.');
    process.exit(code);
  }
}

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
