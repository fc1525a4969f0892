import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';

/** CPU ticks (user + system) of a process so far; 0 once it is gone or unreadable. */
function ticksOf(pid: number) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis; utime and stime are the 14th and 15th of the line.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** Clock ticks per second of /proc's figures (USER_HZ: 100 on Linux's usual builds). */
const TICKS_PER_SECOND = 100;

/**
 * CPU spent between `start` and `stop` by this process (node: the server, and the bench's own side of it)
 * and by the PostgreSQL backends serving this database (issue 40): figures that move less with the machine's
 * other jobs than a rate does, so two builds run at different loads can be compared. PostgreSQL's backends
 * are read from /proc, so only on a local server (null otherwise, or on PGlite).
 */
export function cpuMeter(db: Database, kind: 'pglite' | 'postgres') {
  const backends = async () => {
    if (kind !== 'postgres') return [];
    const result = await db.execute(sql`select pid from pg_stat_activity where datname = current_database()`);
    return ((result as unknown as { rows: { pid: number }[] }).rows ?? []).map((row) => row.pid);
  };
  let started: { node: NodeJS.CpuUsage; pids: number[]; ticks: Map<number, number> } | undefined;
  return {
    async start() {
      const pids = await backends();
      started = { node: process.cpuUsage(), pids, ticks: new Map(pids.map((pid) => [pid, ticksOf(pid)])) };
    },
    /** Microseconds of CPU: node's, PostgreSQL's (null when not measurable). */
    async stop() {
      const node = process.cpuUsage(started!.node);
      const pids = new Set([...started!.pids, ...(await backends())]);
      let ticks = 0;
      for (const pid of pids) ticks += ticksOf(pid) - (started!.ticks.get(pid) ?? 0);
      const readable = [...pids].some((pid) => ticksOf(pid) > 0);
      return {
        nodeUs: node.user + node.system,
        postgresUs: readable ? (ticks * 1_000_000) / TICKS_PER_SECOND : null,
      };
    },
  };
}
