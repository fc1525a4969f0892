import { Worker } from 'node:worker_threads';

/**
 * The last word on shutdown: a thread of its own that kills the process if it is still alive `afterMs`
 * from now. The main thread's own deadline timer cannot fire while that thread is blocked (a burst of
 * CPU-bound requests, a synchronous WASM query); this one runs regardless, writes one line saying so to
 * stderr (if it still can: a closed pipe must not stop the kill), and sends SIGKILL to its own process. A clean exit before then ends it with the process.
 */
export function startShutdownWatchdog(afterMs: number, reason: string): void {
  const worker = new Worker(
    `
    const { workerData } = require('node:worker_threads');
    const { writeSync } = require('node:fs');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.afterMs);
    try {
      writeSync(2, JSON.stringify({ level: 60, time: Date.now(), pid: process.pid, msg: workerData.reason }) + '\\n');
    } catch {
      // stderr's reader has gone (EPIPE): the kill matters, the line does not.
    }
    process.kill(process.pid, 'SIGKILL');
    `,
    { eval: true, workerData: { afterMs, reason } },
  );
  worker.unref();
}
