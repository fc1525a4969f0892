import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/instance.ts';

/**
 * Debian's PgBouncer in front of a PostgreSQL server for tests (issue 40), started like radicale
 * (src/test/radicale.ts): its own config in a temp folder, a free 127.0.0.1 port, `pool_mode = transaction`
 * (a server connection belongs to a client for one transaction only), no password (`auth_type = any`, every
 * client logs in to PostgreSQL as `user`). Installed by `apt-get install -y pgbouncer`; missing, starting
 * fails saying so. `url(database)` is the address of one database through it; `stop()` ends it.
 */
export interface PgBouncer {
  port: number;
  url(database: string): string;
  stop(): Promise<void>;
}

const BINARIES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', '/usr/local/bin/pgbouncer'];

export function pgbouncerBinary(): string {
  const found = BINARIES.find((path) => existsSync(path));
  if (!found) {
    throw new Error(
      `PgBouncer is not installed (looked for ${BINARIES.join(', ')}): apt-get install -y pgbouncer`,
    );
  }
  return found;
}

async function waitUntilListening(port: number, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited (${child.exitCode}): ${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`pgbouncer did not listen on ${port} within 15 s: ${output()}`);
}

/**
 * PgBouncer in transaction mode in front of `server` (a postgres:// URL: its host, port and user are used).
 * `poolSize` server connections per database, fewer than the app's own pool (10), so clients share them as
 * they would in production.
 */
export async function startPgbouncer(
  server: string,
  options: { poolSize?: number } = {},
): Promise<PgBouncer> {
  const binary = pgbouncerBinary();
  const upstream = new URL(server);
  const user = decodeURIComponent(upstream.username || 'postgres');
  const folder = await mkdtemp(join(tmpdir(), 'pgbouncer-'));
  const port = await freePort();
  const config = join(folder, 'pgbouncer.ini');
  await writeFile(
    config,
    [
      '[databases]',
      `* = host=${upstream.hostname} port=${upstream.port || 5432} user=${user}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = transaction',
      `default_pool_size = ${options.poolSize ?? 4}`,
      'max_client_conn = 500',
      'ignore_startup_parameters = extra_float_digits,options',
      'log_connections = 0',
      'log_disconnections = 0',
      '',
    ].join('\n'),
  );
  // PgBouncer refuses to run as root: as root (a container, CI), it drops to PostgreSQL's own user (or nobody).
  await chmod(folder, 0o755);
  await chmod(config, 0o644);
  const runAs = /^postgres:/m.test(await readFile('/etc/passwd', 'utf8').catch(() => ''))
    ? 'postgres'
    : 'nobody';
  const asUser = process.getuid?.() === 0 ? ['-u', runAs] : [];
  const child = spawn(binary, [...asUser, config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
    }
    await rm(folder, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error) =>
        reject(
          new Error(`could not start pgbouncer (${binary}): ${error.message}; apt-get install -y pgbouncer`),
        ),
      );
    });
    await waitUntilListening(port, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    port,
    url: (database) => `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${database}`,
    stop,
  };
}
