import { createHmac, randomInt } from 'node:crypto';
import { type Challenge, createChallenge, type Solution, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Executor } from '../../db/client.ts';

/**
 * The join page's proof that a person is there (issue 24): an ALTCHA proof of work, issued and checked by us
 * (no outside service, no cookie). A challenge is PBKDF2/SHA-256 in altcha-lib v2's deterministic mode: the
 * server picks the counter, so the browser's work is bounded (about a second on a phone with the defaults)
 * and checking a solution is one HMAC. It is signed with our key and carries, signed too, the join link it is
 * for and when it expires by our clock (altcha-lib's own expiry reads the system clock, which tests move).
 * Each solved challenge is taken once (the nonces module: used_nonces).
 */

export interface JoinProofOptions {
  /** The key that signs challenges (configured, else derived from a stored secret: see composition.ts). */
  hmacKey: () => Promise<string>;
  /** PBKDF2 rounds per attempt (ALTCHA_COST). */
  cost: number;
  /** Records a solved challenge's nonce; false when it was used already (nonces/index.ts useNonce). */
  useNonce: (
    executor: Executor,
    scope: string,
    nonce: string,
    expiresAt: Date,
    now: Date,
  ) => Promise<boolean>;
}

/** How long a challenge may take to solve and send. */
export const CHALLENGE_TTL_MS = 10 * 60 * 1000;
/** The attempts the browser makes: a counter drawn between these (the work is counter × cost PBKDF2 rounds). */
const COUNTER_MIN = 2_000;
const COUNTER_MAX = 6_000;
const NONCE_SCOPE = 'join-altcha';

/** Why a payload was refused (for the log; the page says the same to everyone). */
export type ProofRefusal = 'malformed' | 'other_link' | 'expired' | 'invalid' | 'used';

export function createJoinProof(options: JoinProofOptions) {
  // The challenge's signature and the derived key's signature use two keys, both from the one secret.
  const keys = async () => {
    const secret = await options.hmacKey();
    const derive = (label: string) => createHmac('sha256', secret).update(label).digest('hex');
    return { signature: derive('altcha-challenge'), keySignature: derive('altcha-derived-key') };
  };

  return {
    /** A fresh challenge for the join link `slug`. */
    async challenge(slug: string, now: Date): Promise<Challenge> {
      const { signature, keySignature } = await keys();
      return createChallenge({
        algorithm: 'PBKDF2/SHA-256',
        cost: options.cost,
        counter: randomInt(COUNTER_MIN, COUNTER_MAX + 1),
        deriveKey,
        hmacSignatureSecret: signature,
        hmacKeySignatureSecret: keySignature,
        data: { slug, expires: Math.floor((now.getTime() + CHALLENGE_TTL_MS) / 1000) },
      });
    },

    /** Checks a payload (the widget's base64 JSON) for link `slug` and takes it: null when it passes. */
    async take(executor: Executor, slug: string, payload: string, now: Date): Promise<ProofRefusal | null> {
      const parsed = parsePayload(payload);
      if (!parsed) return 'malformed';
      const { challenge, solution } = parsed;
      const data = challenge.parameters.data;
      if (data?.slug !== slug) return 'other_link';
      if (typeof data.expires !== 'number' || data.expires * 1000 < now.getTime()) return 'expired';
      const { signature, keySignature } = await keys();
      const result = await verifySolution({
        challenge: { parameters: challenge.parameters, signature: challenge.signature },
        solution,
        deriveKey,
        hmacSignatureSecret: signature,
        hmacKeySignatureSecret: keySignature,
      }).catch(() => undefined);
      if (!result?.verified) return 'invalid';
      const taken = await options.useNonce(
        executor,
        NONCE_SCOPE,
        challenge.parameters.nonce,
        new Date(data.expires * 1000),
        now,
      );
      return taken ? null : 'used';
    },
  };
}
export type JoinProof = ReturnType<typeof createJoinProof>;

/** The widget's payload: base64 of `{ challenge, solution }`; undefined when it is not that shape. */
function parsePayload(payload: string): { challenge: Challenge; solution: Solution } | undefined {
  try {
    const json = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as unknown;
    if (!json || typeof json !== 'object') return undefined;
    const { challenge, solution } = json as { challenge?: Challenge; solution?: Solution };
    const parameters = challenge?.parameters;
    if (
      !parameters ||
      typeof parameters !== 'object' ||
      typeof parameters.nonce !== 'string' ||
      typeof challenge.signature !== 'string' ||
      !solution ||
      typeof solution !== 'object'
    ) {
      return undefined;
    }
    return { challenge, solution };
  } catch {
    return undefined;
  }
}
