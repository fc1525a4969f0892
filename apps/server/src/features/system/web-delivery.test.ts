import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { DOCUMENT_ONLY_HEADERS } from '../../routes.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

// Issue 16: the built web app is sent compressed (the .br/.gz the build wrote), hashed assets are cached
// for a year, index.html never; the API reference at /api/docs runs under the CSP with no inline script.

let t: TestApp;
let web: FastifyInstance;
let webDist: string;
const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
const indexHtml =
  '<!doctype html><title>Waitlist & Text</title><script type="module" src="/assets/index-abc123.js"></script>';

beforeAll(async () => {
  t = await createTestApp();
  webDist = mkdtempSync(join(tmpdir(), 'wt-web-'));
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'index.html'), indexHtml);
  writeFileSync(join(webDist, 'index.html.br'), brotliCompressSync(indexHtml));
  writeFileSync(join(webDist, 'index.html.gz'), gzipSync(indexHtml));
  writeFileSync(join(webDist, 'assets/index-abc123.js'), script);
  writeFileSync(join(webDist, 'assets/index-abc123.js.br'), brotliCompressSync(script));
  writeFileSync(join(webDist, 'assets/index-abc123.js.gz'), gzipSync(script));
  writeFileSync(join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const config = loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://app.test' },
    { webDistDir: webDist },
  );
  web = await buildApp({ config, database: t.database, clock: t.clock, logger: false });
  await web.ready();
});
afterAll(async () => {
  await web.close();
  await t.close();
  rmSync(webDist, { recursive: true, force: true });
});

describe('the built web app', () => {
  it('sends a hashed asset brotli-compressed to a browser that accepts it, cached for a year', async () => {
    const response = await web.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(script);
  });

  it('leaves the document-only headers off a hashed script and keeps them on the page (issue 40)', async () => {
    const script = await web.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'br' } });
    for (const name of DOCUMENT_ONLY_HEADERS) expect(script.headers[name], name).toBeUndefined();
    expect(script.headers['strict-transport-security']).toBeDefined();
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect(script.headers['cross-origin-resource-policy']).toBe('same-origin');
    const page = await web.inject({ url: '/login' });
    expect(page.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    // Outside assets/ (the service worker, icons) everything stays.
    const icon = await web.inject({ url: '/favicon.svg' });
    expect(icon.headers['content-security-policy']).toMatch(/default-src 'self'/);
  });

  it('sends gzip to a client that accepts only gzip, and the plain file to one that accepts neither', async () => {
    const gzip = await web.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(script);
    const plain = await web.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('never lets index.html be cached, whether asked by a page path or by name, and compresses it', async () => {
    for (const url of ['/login', '/account?tab=billing', '/index.html']) {
      const response = await web.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toMatch(/no-store/);
      expect(response.headers['cache-control'], url).not.toMatch(/immutable|max-age=[1-9]/);
      expect(response.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(response.rawPayload).toString(), url).toBe(indexHtml);
    }
  });

  it('does not cache files outside assets/ for a year (their names carry no hash)', async () => {
    const response = await web.inject({ url: '/favicon.svg' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).not.toMatch(/immutable/);
  });
});

describe('GET /api/docs', () => {
  it('is a page whose scripts are files the CSP allows, with no inline script', async () => {
    const response = await web.inject({ url: '/api/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).not.toMatch(/unsafe-inline[^;]*;?.*script-src|script-src[^;]*unsafe-inline/);
    const scripts = [...response.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(body?.trim(), 'inline script').toBe('');
      const src = /src="([^"]+)"/.exec(attributes ?? '')?.[1];
      expect(src).toMatch(/^\/api\/docs\//);
      const file = await web.inject({ url: src! });
      expect(file.statusCode, src).toBe(200);
      expect(file.headers['content-type'], src).toMatch(/javascript/);
      expect(file.body, src).toContain('/api/docs/openapi.json');
    }
  });

  it('serves the OpenAPI document the page renders, without the page itself in it', async () => {
    const response = await web.inject({ url: '/api/docs/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.paths['/api/v1/auth/me'].get).toBeDefined();
    expect(Object.keys(document.paths).some((path) => path.startsWith('/api/docs'))).toBe(false);
  });
});
