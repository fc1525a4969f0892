// `npm start`: install if needed, build the web app and the server if needed, then run the built server
// (plain JavaScript, apps/server/dist/main.js) in this same process; it migrates the database itself and
// runs on the embedded defaults: PGlite, local mailbox.
import { pathToFileURL } from 'node:url';
import { ensureInstall, ensureServerBuild, ensureWebBuild, root } from './lib.mjs';

await ensureInstall();
await ensureWebBuild();
await ensureServerBuild();

process.env.NODE_ENV ??= 'production';
process.chdir(root);
await import(pathToFileURL(`${root}/apps/server/dist/main.js`).href);
