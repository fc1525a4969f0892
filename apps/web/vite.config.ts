/// <reference types="vitest/config" />
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const apiTarget = 'http://127.0.0.1:3000';

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

/**
 * What /login draws besides the app's entry: its page, the form's fields and their library, the buttons,
 * the sign-in layout, and the mutation hook that sends the form. The providers' buttons come on their own,
 * and only when one is configured.
 */
const signInPieces = new RegExp(
  [
    String.raw`src[\/]components[\/]ui[\/](button|alert|field|text-field|common-fields)\.tsx$`,
    String.raw`src[\/]lib[\/](form-errors|form-fields|config)\.ts$`,
    String.raw`src[\/]features[\/]auth[\/]components[\/](auth-layout|social-buttons|email-from-state)\.tsx?$`,
    String.raw`src[\/]features[\/]auth[\/]pages[\/]login-page\.tsx$`,
    String.raw`node_modules[\/]react-hook-form[\/]`,
    String.raw`node_modules[\/]@tanstack[\/](react-query|query-core)[\/].*[mM]utation`,
  ].join('|'),
);

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
            { name: 'sign-in', test: signInPieces },
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
  },
});
