/// <reference types="vitest/config" />
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { testFilesByIsolation } from '../../scripts/test-isolation.mjs';

const apiTarget = 'http://127.0.0.1:3000';
const webTests = testFilesByIsolation(import.meta.dirname, ['.test.ts', '.test.tsx']);

/**
 * Writes a `.br` and a `.gz` beside every text asset of the build (issue 16), so the server sends them
 * compressed without compressing on each request (@fastify/static's `preCompressed`).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'waitlist:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const visit = (dir: string) => {
        for (const entry of readdirSync(dir)) {
          const path = join(dir, entry);
          if (statSync(path).isDirectory()) {
            if (entry !== '.vite') visit(path);
            continue;
          }
          if (!/\.(js|css|html|svg|json|txt|webmanifest)$/.test(entry)) continue;
          const raw = readFileSync(path);
          if (raw.length < 512) continue;
          writeFileSync(
            `${path}.br`,
            brotliCompressSync(raw, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 11,
                [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
              },
            }),
          );
          writeFileSync(`${path}.gz`, gzipSync(raw, { level: 9 }));
        }
      };
      visit(outDir);
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/dev': { target: apiTarget, changeOrigin: true },
      '/billing/local': { target: apiTarget, changeOrigin: true },
    },
  },
  preview: {
    port: 4173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/dev': { target: apiTarget, changeOrigin: true },
      '/billing/local': { target: apiTarget, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The bundle budget check (scripts/bench/bundle.mjs) reads what /login loads from the manifest.
    manifest: true,
    rolldownOptions: {
      output: {
        // Libraries only some pages use get chunks of their own, so a shared chunk never drags them onto
        // the first screen (zod and the phone metadata arrive with the forms that validate).
        codeSplitting: {
          groups: [
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
            { name: 'libphonenumber', test: /node_modules[\\/]libphonenumber-js[\\/]/ },
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'router', test: /node_modules[\\/]react-router[\\/]/ },
            // The sign-in screens' own pieces in one file (issue 40): fourteen files of a kilobyte each cost
            // as much in response headers as in code on a cold first visit.
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    // `npm test` runs this suite beside the two API suites on two cores (issue 40): a test that takes under a
    // second alone can pass 5 s there. A time-out only catches a hang; what a test asserts is unchanged.
    testTimeout: 15_000,
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    restoreMocks: true,
    unstubGlobals: true,
    // A worker runs its files in one module graph and one jsdom, except those that mock or reset modules
    // (scripts/test-isolation.mjs, issue 40); src/test/setup.ts empties the page between files.
    projects: [
      { extends: true, test: { name: 'web', include: webTests.shared, isolate: false } },
      { extends: true, test: { name: 'web, isolated', include: webTests.isolated } },
    ],
  },
});
