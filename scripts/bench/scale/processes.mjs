// The processes `npm run bench:scale` starts: the built server (as `npm start` runs it) per database, and the
// local Plivo server. Each runs in its own process group, stopped with it and killed if the bench exits.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, serverCommand } from '../../lib.mjs';
import { startProcess, waitForAnswer } from '../../processes.mjs';

/** The local Plivo server (apps/server/src/bench/scale/plivo.ts, through tsx) on `port`, control on port + 1. */
export async function startPlivo(port) {
  const child = startProcess(
    process.execPath,
    ['--import', 'tsx', join(root, 'apps/server/src/bench/scale/plivo.ts'), String(port), String(port + 1)],
    {},
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const found = out.split('\n').find((l) => l.startsWith('PLIVO '));
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`the local Plivo server exited ${code}`)));
  });
  return { child, ...JSON.parse(line.slice('PLIVO '.length)), control: `http://127.0.0.1:${port + 1}` };
}

/** The built server against `size.url` on `size.port`; answers once /health does. */
export async function startServer(size, plivo, { nodeArgs = [], env = {} } = {}) {
  const [command, serverArgs] = serverCommand();
  const child = startProcess(
    command,
    [...nodeArgs, ...serverArgs],
    {
      NODE_ENV: 'production',
      PORT: String(size.port),
      HOST: '127.0.0.1',
      PUBLIC_URL: size.publicUrl,
      DATABASE_URL: size.url,
      PLIVO_AUTH_ID: plivo.authId,
      PLIVO_AUTH_TOKEN: plivo.authToken,
      PLIVO_API_URL: plivo.url,
      // The pipeline, not an account's send rate, is measured (as in bench:alerts).
      SMS_SEND_RATE: '1000',
      LOG_LEVEL: 'error',
      ...env,
    },
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  await waitForAnswer(`${size.publicUrl}/api/v1/health`);
  return child;
}

/** CPU time (ms, user + system) a process has used, from /proc (clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * A meter of the CPU the server process and PostgreSQL's backends serving `database` have used (ms, the
 * backends by process id: the pool closes idle connections and opens new ones between measurements): the
 * difference over a measurement, per request, says which of the two a path spends, and so which runs out first.
 */
export function cpuMeter(serverPid, database) {
  return () => {
    const db = new Map();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
        if (command.startsWith('postgres:') && command.includes(` ${database} `)) db.set(entry, cpuMs(entry));
      } catch {}
    }
    let app = 0;
    try {
      app = cpuMs(serverPid);
    } catch {}
    return { app, db };
  };
}
