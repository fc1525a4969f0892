import { Writable } from 'node:stream';
import Fastify, { LogController } from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerAccessLog } from './request-log.ts';

/** A Fastify app with the product's access line, writing its log lines into an array. */
async function appLogging(level: 'info' | 'debug') {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = Fastify({
    logger: { level, stream },
    logController: new LogController({ disableRequestLogging: true }),
  });
  registerAccessLog(app);
  app.get('/read', async () => ({ ok: true }));
  app.get('/refused', async (_request, reply) => reply.status(400).send({ ok: false }));
  app.post('/change', async (request) => {
    request.log.info({ step: 'saved' }, 'route line');
    return { ok: true };
  });
  await app.ready();
  const access = () => lines.filter((line) => line.msg === 'request completed');
  return { app, lines, access };
}

describe('the access line', () => {
  it('is written at info for a change and an error, with the request id, method, url and status', async () => {
    const { app, access } = await appLogging('info');
    await app.inject({ method: 'POST', url: '/change', payload: {} });
    await app.inject({ url: '/refused?x=1' });
    await app.inject({ url: '/read' });
    expect(access()).toEqual([
      expect.objectContaining({ level: 30, method: 'POST', url: '/change', statusCode: 200 }),
      expect.objectContaining({ level: 30, method: 'GET', url: '/refused?x=1', statusCode: 400 }),
    ]);
    const [first, second] = access();
    expect(first!.reqId).toEqual(expect.any(String));
    expect(second!.reqId).not.toBe(first!.reqId);
    expect(first!.responseTime).toEqual(expect.any(Number));
    await app.close();
  });

  it('leaves a successful read to debug: absent at info, present at debug', async () => {
    const quiet = await appLogging('info');
    await quiet.app.inject({ url: '/read' });
    expect(quiet.access()).toEqual([]);
    await quiet.app.close();

    const verbose = await appLogging('debug');
    await verbose.app.inject({ url: '/read' });
    expect(verbose.access()).toEqual([
      expect.objectContaining({ level: 20, method: 'GET', url: '/read', statusCode: 200 }),
    ]);
    await verbose.app.close();
  });

  it("a route's own line carries the same request id as the access line", async () => {
    const { app, lines, access } = await appLogging('info');
    await app.inject({ method: 'POST', url: '/change', payload: {} });
    const routeLine = lines.find((line) => line.msg === 'route line');
    expect(routeLine).toMatchObject({ step: 'saved', reqId: expect.any(String) });
    expect(routeLine!.reqId).toBe(access()[0]!.reqId);
    await app.close();
  });
});
