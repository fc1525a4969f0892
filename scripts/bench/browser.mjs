// LCP and CLS of real pages in Debian's Chromium, on an emulated slow phone: 1.6 Mbps down, 750 kbps up,
// 150 ms round trip (Lighthouse's "slow 4G"), 4× CPU slowdown, 390 px wide viewport.
import { chromium } from 'playwright-core';
import { chromiumPath } from '../lib.mjs';

const slowPhone = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};

// Collects LCP and CLS (layout shifts without recent input) from the first paint on.
const observe = () => {
  window.__vitals = { lcp: 0, cls: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__vitals.lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__vitals.cls += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
};

/**
 * Loads each page `runs` times in a fresh context (empty cache, as a first visit) and returns the median
 * LCP (ms) and the worst CLS. `pages`: [{ name, path, token?, waitFor }] where waitFor is a selector that
 * shows the page is complete.
 */
export async function measurePages(baseUrl, pages, { runs = 3 } = {}) {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--headless'],
  });
  const results = {};
  try {
    for (const page of pages) {
      const lcps = [];
      let cls = 0;
      for (let i = 0; i < runs; i += 1) {
        const context = await browser.newContext({
          viewport: { width: 390, height: 844 },
          deviceScaleFactor: 2,
        });
        if (page.token) {
          await context.addInitScript((token) => localStorage.setItem('token', token), page.token);
        }
        await context.addInitScript(observe);
        const tab = await context.newPage();
        const cdp = await context.newCDPSession(tab);
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', slowPhone);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        await tab.goto(`${baseUrl}${page.path}`, { waitUntil: 'load', timeout: 60_000 });
        await tab.waitForSelector(page.waitFor, { timeout: 60_000 });
        // Let late content (queries, lazy chunks) land, then read the figures.
        await tab.waitForTimeout(1500);
        const vitals = await tab.evaluate(() => window.__vitals);
        lcps.push(vitals.lcp);
        cls = Math.max(cls, vitals.cls);
        await context.close();
      }
      lcps.sort((a, b) => a - b);
      results[page.name] = { lcp: lcps[Math.floor(lcps.length / 2)], cls };
    }
  } finally {
    await browser.close();
  }
  return results;
}
