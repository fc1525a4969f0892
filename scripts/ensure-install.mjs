import { ensureInstall } from './lib.mjs';

await ensureInstall();
