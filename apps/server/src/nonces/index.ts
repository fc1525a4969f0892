/**
 * Single-use values (issue 24), a module of its own like the outbox: this file is the only way in. A webhook
 * signature's nonce or a solved challenge is recorded for its validity window, and a second use is refused.
 */
export { releaseNonce, sweepNonces, useNonce, useNonceSql } from './nonces.repo.ts';
