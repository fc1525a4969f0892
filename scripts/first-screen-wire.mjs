// The first screen on the wire (issue 40): loads /login cold (a fresh browser context, empty cache) in
// Debian's Chromium from the built server as `npm start` runs it, and sums the bytes each JavaScript response
// took on the wire (Resource Timing's transferSize: compressed body and headers), split by the page's own clock
// into what was asked for before the sign-in form was drawn and what after (fetched while the owner types).
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
    // The page's own clock marks when the sign-in button is first in the document: the form is drawn.
    await context.addInitScript(() => {
      const observer = new MutationObserver(() => {
        const drawn = [...document.querySelectorAll('button')].some(
          (button) => button.textContent === 'Log in',
        );
        if (drawn && !window.__drawnAt) {
          window.__drawnAt = performance.now();
          observer.disconnect();
        }
      });
      observer.observe(document, { childList: true, subtree: true });
    });
    const page = await context.newPage();
    await page.goto(`${base}/login`, { waitUntil: 'load' });
    await page.getByRole('button', { name: 'Log in', exact: true }).waitFor();
    await page.waitForTimeout(3000);
    // Resource Timing: when each script was asked for, and what it took on the wire (body and headers).
    const figures = await page.evaluate(() => ({
      drawnAt: window.__drawnAt,
      scripts: performance
        .getEntriesByType('resource')
        .filter((entry) => entry.initiatorType === 'script' || entry.name.endsWith('.js'))
        .map((entry) => ({ url: entry.name, startTime: entry.startTime, bytes: entry.transferSize })),
    }));
    const before = figures.scripts.filter((script) => script.startTime < figures.drawnAt);
    const sum = (list) => list.reduce((total, script) => total + script.bytes, 0);
    if (process.env.FIRST_SCREEN_FILES)
      for (const script of figures.scripts)
        console.log(
          `${script.startTime < figures.drawnAt ? 'before' : 'after '} ${String(script.bytes).padStart(7)} ${script.url.replace(base, '')}`,
        );
    runs.push({
      beforeDrawn: sum(before),
      total: sum(figures.scripts),
      files: before.length,
      later: figures.scripts.length - before.length,
    });
    await context.close();
  }
  await browser.close();
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  const worst = runs.reduce((a, b) => (b.beforeDrawn > a.beforeDrawn ? b : a));
  console.log(
    `/login cold in Chromium (worst of ${runs.length}): ${kb(worst.beforeDrawn)} of JavaScript on the wire before the form is drawn (${worst.files} files), ${kb(worst.total)} with the ${worst.later} files fetched after it`,
  );
} finally {
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
