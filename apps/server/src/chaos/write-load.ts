import { setTimeout as sleep } from 'node:timers/promises';
import { inArray } from 'drizzle-orm';
import type { DatabaseHandle } from '../db/client.ts';
import { messages } from '../db/schema.ts';
import { api, type Instance } from '../test/instance.ts';

/** Texts written through the API in parallel lanes, and which acknowledged ones the database lacks. */

/** Writes texts to the customers in turn from `lanes` loops; each answer is classified. */
export function writeLoad(instance: Instance, token: string, customerIds: string[], lanes = 4) {
  const state = {
    stop: false,
    acknowledged: [] as string[],
    clean503: 0,
    unclean: [] as string[],
    afterStop: 0,
  };
  const lane = async (id: number) => {
    for (let n = 0; !state.stop; n += 1) {
      try {
        const customerId = customerIds[(id + n * lanes) % customerIds.length]!;
        const response = await api(instance.url, 'POST', `/waitlist/${customerId}/messages`, {
          token,
          body: { body: `Write ${id}.${n}` },
        });
        if (response.status === 201) state.acknowledged.push(response.json.data.id);
        else if (response.status === 503 && typeof response.json?.message === 'string') {
          state.clean503 += 1;
          await sleep(50);
        } else state.unclean.push(`${response.status}`);
      } catch (error) {
        if (state.stop) state.afterStop += 1;
        else state.unclean.push(error instanceof Error ? error.message : String(error));
      }
    }
  };
  const done = Promise.all(Array.from({ length: lanes }, (_, id) => lane(id)));
  return { state, done };
}
export async function missing(database: DatabaseHandle, ids: string[]) {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await database.db
      .select({ id: messages.id })
      .from(messages)
      .where(inArray(messages.id, ids.slice(i, i + 500)));
    for (const row of rows) found.add(row.id);
  }
  return ids.filter((id) => !found.has(id));
}
