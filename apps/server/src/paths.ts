import { fileURLToPath } from 'node:url';

/**
 * Files the server reads at run time, found from apps/server/. This module sits one level below it both
 * as a source (src/paths.ts, run by tsx and the tests) and once built (dist/*.js, `npm start`), so the same
 * relative paths hold in both (issue 16).
 */
const serverRoot = new URL('../', import.meta.url);

/** SQL migrations, applied at start-up. */
export const migrationsFolder = fileURLToPath(new URL('drizzle', serverRoot));
/** The built web app (apps/web/dist). */
export const webDistFolder = fileURLToPath(new URL('../web/dist', serverRoot));
/** The API reference page's files (features/docs). */
export const apiDocsAssetsFolder = fileURLToPath(new URL('src/features/docs/assets', serverRoot));
