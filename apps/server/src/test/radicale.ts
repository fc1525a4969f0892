import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real CalDAV server for tests: Debian's radicale (installed by scripts/test.mjs, ensureRadicale) on a free
 * 127.0.0.1 port, with its own storage folder and htpasswd users (plain passwords: test-only). `stop()` kills it
 * and removes the folder.
 */
export interface Radicale {
  url: string;
  users: { username: string; password: string }[];
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function radicaleCommand(): [string, string[]] {
  return existsSync('/usr/bin/radicale') ? ['/usr/bin/radicale', []] : ['python3', ['-m', 'radicale']];
}

async function waitUntilAnswering(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`radicale exited (${child.exitCode}): ${output()}`);
    try {
      const response = await fetch(url, { method: 'OPTIONS' });
      await response.body?.cancel();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`radicale did not answer at ${url} within 15 s: ${output()}`);
}

export async function startRadicale(
  options: { users?: { username: string; password: string }[] } = {},
): Promise<Radicale> {
  const users = options.users ?? [{ username: 'owner', password: 'app-password-1' }];
  const folder = await mkdtemp(join(tmpdir(), 'radicale-'));
  const port = await freePort();
  const htpasswd = join(folder, 'users');
  await writeFile(htpasswd, users.map((u) => `${u.username}:${u.password}`).join('\n'));
  // Our own config file replaces Debian's /etc/radicale/config (which asks for remote_user auth and TLS).
  const config = join(folder, 'config');
  await writeFile(
    config,
    [
      '[server]',
      `hosts = 127.0.0.1:${port}`,
      '[auth]',
      'type = htpasswd',
      `htpasswd_filename = ${htpasswd}`,
      'htpasswd_encryption = plain',
      'delay = 0',
      '[rights]',
      'type = owner_only',
      '[storage]',
      `filesystem_folder = ${join(folder, 'collections')}`,
      '[web]',
      'type = none',
      '[logging]',
      'level = warning',
      '',
    ].join('\n'),
  );
  const [command, prefix] = radicaleCommand();
  const child = spawn(command, [...prefix, '--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error) =>
      reject(
        new Error(`could not start radicale (${command}): ${error.message}; apt-get install -y radicale`),
      ),
    );
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(folder, { recursive: true, force: true });
  };
  try {
    await spawned;
    await waitUntilAnswering(url, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, users, stop };
}
