import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { TestApp } from '../../test/test-app.ts';

/** The configuration of a test app whose proofs of work take milliseconds (one PBKDF2 round an attempt). */
export const quickProofOfWork = { ALTCHA_COST: '1' };

/**
 * The join page's proof of work as the widget makes it (issue 24): a challenge from GET /join/{slug}/challenge,
 * solved, sent as base64 JSON. Quick in an app made with `quickProofOfWork`.
 */
export async function solvedProof(t: TestApp, slug: string, ip: string): Promise<string> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/v1/join/${slug}/challenge`,
    remoteAddress: ip,
  });
  if (response.statusCode !== 200) throw new Error(`challenge failed: ${response.body}`);
  const challenge = response.json() as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('challenge not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
