import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, inArray } from 'drizzle-orm';
import { openDatabase } from '../db/client.ts';
import { messages } from '../db/schema.ts';
import { startFakePlivo } from '../test/fake-plivo.ts';
import { startInstance } from '../test/instance.ts';
import { cluster, login, newDatabase, plivoEnv, prepareOwner, results, say, settled } from './harness.ts';
import { tally } from './tally.ts';
import { missing, writeLoad } from './write-load.ts';

/** PostgreSQL restarted under write load: writes answer 503 meanwhile, then resume without an app restart. */

export async function postgresRestart() {
  const fault = 'PostgreSQL restarted under write load (down ~5 s)';
  say(`${fault}…`);
  const url = await newDatabase();
  const database = openDatabase({ url });
  await database.migrate();
  const plivo = await startFakePlivo();
  const { owner, customers: list } = await prepareOwner(database, plivo, 20);
  const a = await startInstance({
    DATABASE_URL: url,
    PUBLIC_URL: 'http://app.test',
    ...plivoEnv(plivo),
    SMS_SEND_RATE: '1000',
  });
  const token = await login(a, owner.email, owner.password);
  const load = writeLoad(
    a,
    token,
    list.map((c) => c.id),
  );
  await sleep(3_000);
  const ackBefore = load.state.acknowledged.length;
  cluster.stop();
  const downAt = Date.now();
  await sleep(5_000);
  cluster.start();
  const downSeconds = ((Date.now() - downAt) / 1000).toFixed(1);
  await sleep(4_000);
  load.state.stop = true;
  await load.done;
  const recovered = load.state.acknowledged.length > ackBefore;
  if (a.child.exitCode !== null || a.child.signalCode !== null) {
    console.error(`the instance died while the database was down:\n${a.log().slice(-3000)}`);
  }
  const reopened = openDatabase({ url });
  await settled(reopened, 60_000);
  const lost = await missing(reopened, load.state.acknowledged);
  const bodies = await reopened.db
    .select({ body: messages.body })
    .from(messages)
    .where(
      and(eq(messages.direction, 'out'), inArray(messages.id, load.state.acknowledged.slice(0, 100_000))),
    );
  const atPlivo = plivo.messages.map((m) => m.text);
  const texts = tally(
    bodies.map((row) => row.body),
    atPlivo,
  );
  results.push({
    fault,
    sent: `${load.state.acknowledged.length} writes acknowledged, ${texts.once} texts at Plivo once`,
    lost: lost.length + texts.lost,
    duplicated: texts.duplicated,
    notes: `down ${downSeconds} s: ${load.state.clean503} answers were 503 with a message, ${load.state.unclean.length} other failures${load.state.unclean.length ? ` (${[...new Set(load.state.unclean)].slice(0, 3).join('; ')})` : ''}; writes ${recovered ? 'resumed' : 'did NOT resume'} without restarting the app`,
  });
  await a.stop();
  await reopened.close();
  await database.close();
  await plivo.close();
}
