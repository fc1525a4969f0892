/**
 * The local Plivo server for `npm run bench:scale` (issue 30), in its own process: the test suite's fake
 * Plivo (the product's Plivo provider sends to it as to Plivo), plus a control port for the bench.
 *   node --import tsx src/bench/scale/plivo.ts <port> <controlPort>
 * Prints one line `PLIVO {"url","authId","authToken"}` once listening. The control port answers
 *   GET /wait?src=<digits>&count=<n>&timeoutMs=<ms>: when `n` texts from that number have arrived in all, the
 *     epoch time (ms, fractional) the n-th arrived; 408 on timeout
 *   GET /count?src=<digits>: the texts received in all, the epoch time of the last one, and from that number
 */
import { createServer } from 'node:http';
import { startFakePlivo } from '../../test/fake-plivo.ts';

const [port, controlPort] = process.argv.slice(2).map(Number);
const fake = await startFakePlivo({ port });
/** Per sender (digits): arrival times (epoch ms) in order. */
const arrivals = new Map<string, number[]>();
let total = 0;
let lastAt = 0;
const waiters = new Set<() => void>();

fake.onMessage = (message) => {
  const at = performance.timeOrigin + performance.now();
  const src = message.src.replace(/^\+/, '');
  const list = arrivals.get(src) ?? [];
  list.push(at);
  arrivals.set(src, list);
  total += 1;
  lastAt = at;
  // Only the counts are needed: the recorded requests and messages would grow for the whole run.
  fake.requests.length = 0;
  fake.messages.length = 0;
  for (const wake of waiters) wake();
};

const control = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://control');
  const answer = (status: number, body: object) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const src = (url.searchParams.get('src') ?? '').replace(/^\+/, '');
  if (url.pathname === '/count') return answer(200, { total, lastAt, src: arrivals.get(src)?.length ?? 0 });
  if (url.pathname !== '/wait') return answer(404, {});
  const count = Number(url.searchParams.get('count'));
  const check = () => {
    const at = arrivals.get(src)?.[count - 1];
    if (at === undefined) return false;
    answer(200, { at });
    return true;
  };
  if (check()) return;
  const timer = setTimeout(
    () => {
      waiters.delete(wake);
      answer(408, { received: arrivals.get(src)?.length ?? 0 });
    },
    Number(url.searchParams.get('timeoutMs') ?? 30_000),
  );
  const wake = () => {
    if (!check()) return;
    clearTimeout(timer);
    waiters.delete(wake);
  };
  waiters.add(wake);
});
control.listen(controlPort, '127.0.0.1', () => {
  console.log(`PLIVO ${JSON.stringify({ url: fake.url, authId: fake.authId, authToken: fake.authToken })}`);
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    control.close();
    void fake.close().finally(() => process.exit(0));
  });
}
