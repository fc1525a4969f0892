import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A real server process (dist/main.js or src/main.ts, see serverProcessArgs: the entry `npm start` runs) for tests and `npm run chaos` that
 * need more than `app.inject()`: two instances on one database, kill -9, SIGTERM. Its log is kept.
 */
export interface Instance {
  url: string;
  port: number;
  child: ChildProcess;
  log(): string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL, then waits for the exit. */
  kill9(): Promise<void>;
  /** SIGTERM, then waits for the exit (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const serverDir = fileURLToPath(new URL('../..', import.meta.url));

let built: boolean | undefined;
/**
 * How a test starts the server (or `args`, another entry): the built dist/main.js as production runs it, when
 * the build matches the sources (scripts/build-server.mjs keeps a hash; the API suite's global set-up
 * builds it); otherwise the TypeScript sources through tsx, so a test never runs stale code (issue 40).
 */
export async function serverProcessArgs(): Promise<string[]> {
  if (built === undefined) {
    // @ts-expect-error a plain-JavaScript script without types
    const { serverBuildIsCurrent } = await import('../../../../scripts/build-server.mjs');
    built = serverBuildIsCurrent() as boolean;
  }
  return built ? [join(serverDir, 'dist/main.js')] : ['--import', 'tsx', join(serverDir, 'src/main.ts')];
}

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startInstance(
  env: Record<string, string>,
  options: { port?: number; readyTimeoutMs?: number } = {},
): Promise<Instance> {
  const port = options.port ?? (await freePort());
  let output = '';
  const child = spawn(process.execPath, await serverProcessArgs(), {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      SERVE_WEB: 'false',
      HOST: '127.0.0.1',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  for (;;) {
    if (ended) throw new Error(`instance exited before it was ready:\n${output}`);
    try {
      const response = await fetch(`${url}/api/v1/health/ready`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`instance not ready after ${options.readyTimeoutMs ?? 60_000} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    port,
    child,
    log: () => output,
    exited,
    async kill9() {
      if (!ended) child.kill('SIGKILL');
      await exited;
    },
    async stop(graceMs = 15_000) {
      if (!ended) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}

/** JSON over HTTP to an instance. */
export async function api(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const text = await response.text();
  // Answers are read by tests that know their shape: a loose type, checked by their assertions.
  // biome-ignore lint/suspicious/noExplicitAny: see above
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = { raw: text };
  }
  return { status: response.status, json, headers: response.headers };
}
