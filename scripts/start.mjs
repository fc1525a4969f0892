// `npm start`: install if needed, build the web app and the server if needed, then run the built server
// (plain JavaScript, apps/server/dist/main.js) in this same process; it migrates the database itself and
// runs on the embedded defaults: PGlite, local mailbox. When nothing changed, the checks are a comparison of
// node_modules with the lock, file times of the web sources and a hash of the server's sources (~30 ms);
// their time is logged with the server's start-up phases ("startupMs" in the "running at" line).
import { pathToFileURL } from 'node:url';
import { ensureInstall, ensureServerBuild, ensureWebBuild, root } from './lib.mjs';

await ensureInstall();
await ensureWebBuild();
await ensureServerBuild();

process.env.START_CHECKS_MS = String(Math.round(performance.now()));
process.env.NODE_ENV ??= 'production';
process.chdir(root);
await import(pathToFileURL(`${root}/apps/server/dist/main.js`).href);
