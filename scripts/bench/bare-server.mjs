// The bare baseline of `npm run bench`: Fastify and node-postgres, nothing else, answering one route that
// reads one user row by primary key. What the product's `GET /auth/me` is compared with.
// Usage: node scripts/bench/bare-server.mjs <port> <database url> <user id>
import Fastify from 'fastify';
import pg from 'pg';

const [port, url, userId] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: 10 });
const app = Fastify({ logger: false });
app.get('/me', async () => {
  const { rows } = await pool.query({
    name: 'bare-me',
    text: 'select id, first_name, last_name, email from users where id = $1',
    values: [userId],
  });
  return { success: true, user: rows[0] };
});
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.send?.('ready');
process.on('SIGTERM', async () => {
  await app.close();
  await pool.end();
  process.exit(0);
});
