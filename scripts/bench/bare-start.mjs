// The start-up baseline of `npm run bench`: what this stack needs at the least to answer, in one plain
// `node` process: load Fastify, open PGlite on the given data directory (as the product's start does, with
// pg_trgm), answer GET /login. Usage: node scripts/bench/bare-start.mjs <port> <PGlite data directory>
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../apps/server/package.json', import.meta.url));
const [port, dataDir] = process.argv.slice(2);
const [{ default: Fastify }, { PGlite }, { pg_trgm }] = await Promise.all([
  import(require.resolve('fastify')),
  import(require.resolve('@electric-sql/pglite')),
  import(require.resolve('@electric-sql/pglite/contrib/pg_trgm')),
]);
const db = new PGlite(dataDir, { extensions: { pg_trgm }, postgresqlconf: ['shared_buffers = 16MB'] });
const app = Fastify({ logger: false });
app.get('/login', async () => (await db.query('select 1 as one')).rows[0]);
await Promise.all([db.waitReady, app.listen({ port: Number(port), host: '127.0.0.1' })]);
process.on('SIGTERM', async () => {
  await app.close();
  await db.close();
  process.exit(0);
});
