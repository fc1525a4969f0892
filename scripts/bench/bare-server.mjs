// The bare baselines of `npm run bench`: Fastify and node-postgres, nothing else. What the product's
// `GET /auth/me` is compared with, two ways:
//   row       one route that reads one user row (four columns) by primary key: the floor of any request that
//             touches the database (the baseline of issue 16);
//   same-job  GET /auth/me's job done plainly (issue 40): the bearer token hashed (SHA-256), the live session
//             and its user read in one query that also builds the user's JSON (the product's answer, field
//             for field), 401 without a live session, the JSON sent as the database wrote it.
// Usage: node scripts/bench/bare-server.mjs <port> <database url> <user id> [row|same-job]
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const [port, url, userId, mode = 'row'] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: 10 });
const app = Fastify({ logger: false });

const iso = (column) => `to_char(u.${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const sessionUserJson = `select json_build_object(
  'id', u.id, '_id', u.id, 'firstName', u.first_name, 'lastName', u.last_name,
  'email', u.email, 'pendingEmail', u.pending_email,
  'businessName', u.business_name, 'businessPhone', u.business_phone,
  'businessAddress', u.business_address, 'city', u.city, 'state', u.state, 'zip', u.zip,
  'verified', u.verified, 'admin', u.admin,
  'isExternalAuth', u.is_external_auth, 'provider', u.provider, 'providerId', u.provider_id,
  'subscriptionPlan', u.subscription_plan, 'subscriptionPeriod', u.subscription_period,
  'subscriptionStatus', u.subscription_status,
  'trialEndDate', ${iso('trial_end_date')}, 'currentPeriodEnd', ${iso('current_period_end')},
  'plivoNumber', u.plivo_number, 'plivoNumberStatus', u.plivo_number_status, 'phoneNumber', u.phone_number,
  'pushNotificationsEnabled', u.push_notifications_enabled, 'devicePlatform', u.device_platform,
  'weeklySummaryEnabled', u.weekly_summary_enabled,
  'businessVerification', json_build_object('status', u.business_verification_status, 'businessPhone', u.business_phone),
  'createdAt', ${iso('created_at')}
)::text
from sessions s join users u on u.id = s.user_id
where s.token_hash = $1 and s.expires_at > $2::timestamptz limit 1`;

if (mode === 'same-job') {
  app.get('/me', async (request, reply) => {
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!token) return reply.code(401).send({ success: false, error: 'Not authenticated' });
    const { rows } = await pool.query({
      name: 'bare-session-me',
      text: sessionUserJson,
      values: [createHash('sha256').update(token).digest('hex'), new Date().toISOString()],
      rowMode: 'array',
    });
    if (!rows[0]) return reply.code(401).send({ success: false, error: 'Session expired' });
    return reply.type('application/json; charset=utf-8').send(`{"success":true,"data":${rows[0][0]}}`);
  });
} else {
  app.get('/me', async () => {
    const { rows } = await pool.query({
      name: 'bare-me',
      text: 'select id, first_name, last_name, email from users where id = $1',
      values: [userId],
    });
    return { success: true, user: rows[0] };
  });
}
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.send?.('ready');
process.on('SIGTERM', async () => {
  await app.close();
  await pool.end();
  process.exit(0);
});
