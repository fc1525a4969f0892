// `npm run dev`: the API with reload on change (tsx watch) and the web app with hot reload (Vite,
// which proxies /api and /dev to the API).
import { spawn } from 'node:child_process';
import { log, root } from './lib.mjs';

const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'apps/server/src/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { PUBLIC_URL: 'http://localhost:5173', ...process.env, SERVE_WEB: 'false' },
  }),
  spawn('npx', ['vite', '--port', '5173', '--strictPort'], { cwd: `${root}/apps/web`, stdio: 'inherit' }),
];
log('Dev servers starting: open http://localhost:5173 (API on http://localhost:3000)');
const stop = (signal) => {
  for (const child of children) child.kill(signal);
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal));
for (const child of children) {
  child.on('exit', (code) => {
    stop('SIGTERM');
    process.exitCode = code ?? 0;
  });
}
