import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type DatabaseHandle, openDatabase } from '../db/client.ts';
import { startFakePlivo } from '../test/fake-plivo.ts';
import { startInstance } from '../test/instance.ts';
import { login, newDatabase, openAlert, plivoEnv, prepareOwner, results, say, settled } from './harness.ts';
import { tally } from './tally.ts';
import { missing, writeLoad } from './write-load.ts';

/** Faults that kill an instance with SIGKILL: mid alert, and under write load (PGlite and PostgreSQL). */

export async function killDuringAlert() {
  const fault = 'kill -9 of an instance mid 100-customer alert';
  say(`${fault}…`);
  const url = await newDatabase();
  const database = openDatabase({ url });
  await database.migrate();
  const plivo = await startFakePlivo();
  const { owner, customers: list } = await prepareOwner(database, plivo, 100);
  const common = { DATABASE_URL: url, PUBLIC_URL: 'http://app.test', SMS_SEND_RATE: '20' };
  const a = await startInstance({ ...common, ...plivoEnv(plivo, 'a') });
  const b = await startInstance({ ...common, ...plivoEnv(plivo, 'b') });
  let fromA = 0;
  let killedAt = -1;
  // The worst moment: Plivo has taken A's 10th text, and A dies before it hears the answer or commits.
  plivo.onMessage = async (message) => {
    if (message.via !== 'a' || killedAt >= 0) return;
    fromA += 1;
    if (fromA === 10) {
      killedAt = plivo.messages.length;
      await a.kill9();
    }
  };
  const token = await login(a, owner.email, owner.password);
  const started = Date.now();
  await openAlert(a, token);
  const done = await settled(database, 180_000);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const counts = tally(
    list.map((c) => c.phone.slice(1)),
    plivo.messages.map((m) => m.dst),
  );
  const asked = plivo.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/Message/')).length;
  const byA = plivo.messages.filter((m) => m.via === 'a').length;
  results.push({
    fault,
    sent: `${counts.once}/100`,
    lost: counts.lost,
    duplicated: counts.duplicated,
    notes: `A killed after Plivo took its text #${killedAt} (answer never read); A sent ${byA}, B the rest, in ${seconds} s${done ? '' : ' (outbox NOT settled)'}; Plivo asked ${asked}× before a resend`,
  });
  await b.stop();
  await database.close();
  await plivo.close();
}

export async function killUnderWriteLoad(kind: 'PGlite' | 'PostgreSQL') {
  const fault = `kill -9 under write load (${kind})`;
  say(`${fault}…`);
  let dataDir: string | undefined;
  let url: string | undefined;
  let database: DatabaseHandle;
  if (kind === 'PostgreSQL') {
    url = await newDatabase();
    database = openDatabase({ url });
  } else {
    dataDir = mkdtempSync(join(tmpdir(), 'wt-chaos-pglite-'));
    database = openDatabase({ dataDir });
  }
  await database.migrate();
  const { owner, customers: list } = await prepareOwner(database, undefined, 5);
  if (dataDir) await database.close();
  const a = await startInstance(url ? { DATABASE_URL: url } : { DATA_DIR: dataDir! });
  const token = await login(a, owner.email, owner.password);
  const load = writeLoad(
    a,
    token,
    list.map((c) => c.id),
  );
  await sleep(6_000);
  load.state.stop = true;
  await a.kill9();
  await load.done;
  const reopened = url ? database : openDatabase({ dataDir: dataDir! });
  const lost = await missing(reopened, load.state.acknowledged);
  results.push({
    fault,
    sent: `${load.state.acknowledged.length} writes acknowledged`,
    lost: lost.length,
    duplicated: 0,
    notes: `${load.state.afterStop} requests in flight at the kill (not acknowledged, so not counted)`,
  });
  await reopened.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
