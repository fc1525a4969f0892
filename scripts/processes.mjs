// The processes the benches start (servers, local providers): each in its own process group, stopped with
// it, and killed if the bench exits first, so no server outlives a failed run.
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { root } from './lib.mjs';

const children = new Set();
process.on('exit', () => {
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  }
});

/** `command args` from the repository's root with `env` added, in a process group of its own. */
export function startProcess(command, args, env, { stdio = 'ignore' } = {}) {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio, detached: true });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

/** SIGTERM to the whole group, then SIGKILL after 10 s if it is still there. */
export async function stopProcess(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {}
  await Promise.race([exited, sleep(10_000)]);
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {}
}

/** Milliseconds until `url` answers below 500 (polled every 10 ms); throws after `timeoutMs`. */
export async function waitForAnswer(url, timeoutMs = 60_000) {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status < 500) return performance.now() - started;
    } catch {}
    await sleep(10);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}
