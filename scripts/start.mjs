// `npm start`: install if needed, build the web app if needed, then run the server (it migrates the
// database itself) on the embedded defaults: PGlite, local mailbox.
import { spawn } from 'node:child_process';
import { ensureInstall, ensureWebBuild, root } from './lib.mjs';

await ensureInstall();
await ensureWebBuild();

const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { NODE_ENV: 'production', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
