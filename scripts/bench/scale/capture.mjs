// Loaded into the built server with `node --import` by `npm run bench:scale` (issue 30) for its EXPLAIN pass
// only: every statement node-postgres sends (text and values) is appended to SCALE_CAPTURE_FILE as a JSON
// line, so the bench explains the very SQL each route ran. Not loaded while anything is timed.
import { appendFileSync } from 'node:fs';
import pg from 'pg';

const file = process.env.SCALE_CAPTURE_FILE;
if (file) {
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (config, values, ...rest) {
    const text = typeof config === 'string' ? config : config?.text;
    const params = Array.isArray(values) ? values : config?.values;
    if (typeof text === 'string')
      appendFileSync(file, `${JSON.stringify({ at: Date.now(), text, values: params ?? [] })}\n`);
    return query.call(this, config, values, ...rest);
  };
}
