import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { IcsWindow } from './ics.ts';
import { type ParsedText, type ParseTask, PROGRESS_BYTES } from './ics-parse.worker.ts';

/**
 * Reading an owner's calendar was stopped at its time limit too often. `slow`: the events found to spin on the
 * way, kept by the caller so the next read skips them and gets further.
 */
export class CalendarParseTimeout extends Error {
  override name = 'CalendarParseTimeout';
  constructor(
    message: string,
    readonly slow: { uid: string; title: string }[],
  ) {
    super(message);
  }
}

/** One text (an ICS feed, a CalDAV object) as parsed: its instances and skipped events, or why it failed. */
export type ParsedCalendar = ParsedText;

export interface IcsParser {
  /**
   * Parses `texts` over `window` in a worker thread, never on the event loop: a read past `budgetMs` ends the
   * thread, the event it was expanding is skipped (named as `too-slow`) and the read is tried again, at most
   * `maxRetries` times; then CalendarParseTimeout. `skipUids`: events known to be too slow (an earlier read).
   */
  parse(texts: string[], window: IcsWindow, skipUids?: Iterable<string>): Promise<ParsedCalendar[]>;
  /** Ends the threads (the server's shutdown). */
  close(): Promise<void>;
}

export interface IcsParserOptions {
  /** Wall time one parse may take before its thread is ended (default 3 s; CPU time is at most this). */
  budgetMs?: number;
  /** Threads (default: one per core beyond the first, at least 1, at most 2). */
  maxThreads?: number;
  /** Tries after a time-out, each with one more event skipped (default 4). */
  maxRetries?: number;
  /** Heap a thread may use, in MB (default 256): a feed that would need more ends its thread. */
  maxHeapMb?: number;
}

/** How long a read may wait for a thread (start-up, a queue of other owners' reads) before it is given up. */
const WAIT_MS = 30_000;

const here = import.meta.url;
/**
 * The worker's file: beside this one in the sources (run through tsx, as the test and dev servers are), and
 * beside the bundle's chunks in dist (scripts/build-server.mjs builds it as an entry point of its own).
 */
const workerFile = here.endsWith('.ts')
  ? new URL('./ics-parse.worker.ts', here)
  : new URL('./ics-parse.worker.js', here);
const workerArgv = here.endsWith('.ts') ? ['--import', 'tsx'] : [];

/** Reads which event the worker was expanding from its progress buffer. */
function culpritOf(progress: SharedArrayBuffer): { uid: string; title: string } | null {
  const length = Atomics.load(new Int32Array(progress, 0, 2), 1);
  if (length <= 0) return null;
  const [uid = '', title = ''] = new TextDecoder()
    .decode(new Uint8Array(progress, 8, length).slice())
    .split('\u001f');
  return uid ? { uid, title } : null;
}

/**
 * The pool that parses owners' calendars (issue 38). ical.js can spin forever inside one step of a repeat
 * rule (FREQ=SECONDLY;BYSECOND=60), and a feed is whatever a stranger wrote: parsing and recurrence expansion
 * run on worker threads, each read with a hard time limit that ends its thread, and a bounded heap.
 */
export function createIcsParser(options: IcsParserOptions = {}): IcsParser {
  const budgetMs = options.budgetMs ?? 3_000;
  const maxRetries = options.maxRetries ?? 4;
  let pool: Piscina | undefined;
  const poolOf = () => {
    pool ??= new Piscina({
      filename: workerFile.href,
      execArgv: [...workerArgv],
      minThreads: 0,
      maxThreads: options.maxThreads ?? Math.max(1, Math.min(2, availableParallelism() - 1)),
      idleTimeout: 60_000,
      maxQueue: 100,
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? 256 },
    });
    return pool;
  };

  /**
   * One try: the thread is ended `budgetMs` after it began the task (a thread's start-up and the queue do not
   * count), or `budgetMs + WAIT_MS` after asking if it never began.
   */
  async function once(task: ParseTask): Promise<ParsedCalendar[] | 'timeout'> {
    const controller = new AbortController();
    const asked = performance.now();
    let began: number | undefined;
    const header = new Int32Array(task.progress, 0, 2);
    const watch = setInterval(
      () => {
        const now = performance.now();
        if (began === undefined && Atomics.load(header, 0) === 1) began = now;
        if ((began !== undefined && now - began > budgetMs) || now - asked > budgetMs + WAIT_MS)
          controller.abort();
      },
      Math.min(50, budgetMs / 4),
    );
    try {
      return (await poolOf().run(task, { signal: controller.signal })) as ParsedCalendar[];
    } catch (error) {
      if (controller.signal.aborted) return 'timeout';
      throw error;
    } finally {
      clearInterval(watch);
    }
  }

  return {
    async parse(texts, window, skipUids = []) {
      const skip = new Set(skipUids);
      const slow: { uid: string; title: string }[] = [];
      for (let attempt = 0; ; attempt += 1) {
        const progress = new SharedArrayBuffer(PROGRESS_BYTES);
        const result = await once({
          texts,
          window: {
            from: window.from.getTime(),
            to: window.to.getTime(),
            ...(window.defaultTimeZone ? { defaultTimeZone: window.defaultTimeZone } : {}),
          },
          skipUids: [...skip],
          progress,
        });
        if (result !== 'timeout') return result;
        const culprit = culpritOf(progress);
        if (culprit && !skip.has(culprit.uid)) {
          // Skipped, and named as `too-slow`, by the next try (readIcsText's skipUids).
          skip.add(culprit.uid);
          slow.push(culprit);
        } else attempt = maxRetries;
        if (attempt >= maxRetries)
          throw new CalendarParseTimeout(`Reading the calendar took more than ${budgetMs} ms`, slow);
      }
    },
    async close() {
      await pool?.destroy();
      pool = undefined;
    },
  };
}
