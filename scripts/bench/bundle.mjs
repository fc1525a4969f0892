// What the first screen (/login) downloads: the entry script, every chunk it imports statically, and the
// login page's own chunk with its imports, read from Vite's manifest. Sizes are what the server sends:
// the precompressed .br and .gz files written at build (or, when missing, compressed here).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** The first screen's budget: compressed (gzip) JavaScript /login loads before it can paint. */
export const FIRST_SCREEN_BUDGET_BYTES = 150 * 1024;
export const FIRST_SCREEN_ROUTE_MODULE = 'src/features/auth/pages/login-page.tsx';

function compressedSize(path, ext) {
  if (existsSync(`${path}.${ext}`)) return readFileSync(`${path}.${ext}`).length;
  const raw = readFileSync(path);
  return ext === 'br'
    ? brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length
    : gzipSync(raw, { level: 9 }).length;
}

/** Files (dist-relative) the /login screen loads, and their raw, gzip and brotli sizes in bytes. */
export function firstScreenJs(distDir) {
  const manifestPath = join(distDir, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) {
    // A build without a manifest: what index.html loads.
    const html = readFileSync(join(distDir, 'index.html'), 'utf8');
    const found = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    return sizes(distDir, new Set(found));
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const files = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
  if (!entry) throw new Error('the manifest has no entry');
  visit(entry);
  visit(FIRST_SCREEN_ROUTE_MODULE);
  return sizes(distDir, files);
}

function sizes(distDir, files) {
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  for (const file of files) {
    const path = join(distDir, file);
    raw += readFileSync(path).length;
    gzip += compressedSize(path, 'gz');
    brotli += compressedSize(path, 'br');
  }
  return { files: [...files], raw, gzip, brotli };
}
