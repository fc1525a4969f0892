// The first screen on the wire (issue 40): loads /login cold (a fresh browser context, empty cache) in
// Debian's Chromium from the built server as `npm start` runs it, and sums the bytes each JavaScript response
// took on the wire (CDP's encodedDataLength: compressed body and headers), split into what loaded before the
// sign-in form was drawn and what came after (prefetches while the owner types). Prints the figures.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumPath, ensureServerBuild, ensureWebBuild, root } from './lib.mjs';

const port = Number(process.env.FIRST_SCREEN_PORT ?? 3430);
const base = `http://127.0.0.1:${port}`;

await ensureWebBuild();
await ensureServerBuild();
const dataDir = mkdtempSync(join(tmpdir(), 'first-screen-'));
const server = spawn(process.execPath, [join(root, 'apps/server/dist/main.js')], {
  env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
  stdio: 'ignore',
});
try {
  for (let i = 0; ; i += 1) {
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) break;
    } catch {}
    if (i > 600) throw new Error('the server did not answer in 60 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--headless'],
  });
  const runs = [];
  for (let run = 0; run < 3; run += 1) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const scripts = new Map();
    let drawn = false;
    const before = new Set();
    cdp.on('Network.responseReceived', (event) => {
      if (event.type === 'Script') {
        scripts.set(event.requestId, {
          url: event.response.url,
          encoding: event.response.headers['content-encoding'],
        });
        if (!drawn) before.add(event.requestId);
      }
    });
    const sizes = new Map();
    cdp.on('Network.loadingFinished', (event) => {
      if (scripts.has(event.requestId)) sizes.set(event.requestId, event.encodedDataLength);
    });
    await page.goto(`${base}/login`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('button', { name: 'Log in', exact: true }).waitFor();
    drawn = true;
    await page.waitForTimeout(3000);
    const sum = (ids) => [...ids].reduce((total, id) => total + (sizes.get(id) ?? 0), 0);
    const all = [...scripts.keys()];
    if (process.env.FIRST_SCREEN_FILES)
      for (const id of all)
        console.log(
          `${before.has(id) ? 'before' : 'after '} ${(sizes.get(id) ?? 0).toString().padStart(7)} ${scripts.get(id).encoding ?? 'none'} ${scripts.get(id).url.replace(base, '')}`,
        );
    runs.push({
      beforeDrawn: sum(before),
      total: sum(all),
      files: before.size,
      later: all.length - before.size,
      encodings: [...new Set([...scripts.values()].map((script) => script.encoding ?? 'none'))],
    });
    await context.close();
  }
  await browser.close();
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  const last = runs.at(-1);
  console.log(
    `/login cold in Chromium: ${kb(last.beforeDrawn)} of JavaScript on the wire before the form is drawn (${last.files} files, ${last.encodings.join('/')}), ${kb(last.total)} including ${last.later} files fetched after it`,
  );
} finally {
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
