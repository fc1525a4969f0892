/**
 * The worker thread that parses owners' calendars (issue 38): ics-parser.ts runs `parse` here, never on the
 * event loop that answers requests, and ends this thread when a read runs past its time limit. Before each
 * repeating event is expanded, its UID and title are written to the shared `progress` buffer, so the one that
 * never returned can be named and skipped at the next try.
 */
import { type IcsRead, type IcsWindow, readIcsText } from './ics.ts';

export interface ParseTask {
  texts: string[];
  window: { from: number; to: number; defaultTimeZone?: string };
  skipUids: string[];
  /**
   * Shared with the caller: [0] is 1 once this thread has begun the task (its time limit counts from then,
   * not from a thread's start-up), [1] the length of the UTF-8 "uid\u001ftitle" from byte 8 on: the event
   * being expanded.
   */
  progress: SharedArrayBuffer;
}

export const PROGRESS_BYTES = 8 + 1024;

/** Writes which event is being worked on into `progress` (cut to fit; UTF-8); '' when none is. */
export function markProgress(progress: SharedArrayBuffer, uid: string, title: string) {
  const header = new Int32Array(progress, 0, 2);
  const { written } = new TextEncoder().encodeInto(`${uid}\u001f${title}`, new Uint8Array(progress, 8));
  Atomics.store(header, 1, uid ? written : 0);
}

/** One text's outcome: what it holds, or why it could not be read (a malformed file). */
export type ParsedText = IcsRead | { error: string };

export default function parse(task: ParseTask): ParsedText[] {
  const window: IcsWindow = {
    from: new Date(task.window.from),
    to: new Date(task.window.to),
    ...(task.window.defaultTimeZone ? { defaultTimeZone: task.window.defaultTimeZone } : {}),
  };
  const skipUids = new Set(task.skipUids);
  Atomics.store(new Int32Array(task.progress, 0, 2), 0, 1);
  return task.texts.map((text) => {
    try {
      return readIcsText(text, window, {
        skipUids,
        onEvent: (uid, title) => markProgress(task.progress, uid, title),
      });
    } catch (error) {
      return { error: (error as Error).message };
    }
  });
}
