import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import argon2 from 'argon2';

/** A 256-bit random token, URL-safe. Sessions and reset links use it; only its hash is stored. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function generateVerificationCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** argon2id at the library's defaults (m=64 MiB, t=3, p=4): OWASP's recommended parameters. */
export const PRODUCTION_PASSWORD_COST = { memoryCost: 65_536, timeCost: 3, parallelism: 4 } as const;
/**
 * What the test suites hash at (issue 40): ~16 ms a hash instead of ~0.45 s on a loaded machine, across
 * hundreds of sign-ups and logins. Chosen only by the API suite's set-up file (src/test/setup.ts); one
 * test (secrets.test.ts) pins that a fresh process hashes at PRODUCTION_PASSWORD_COST.
 */
export const TEST_PASSWORD_COST = { memoryCost: 1_024, timeCost: 1, parallelism: 1 } as const;

type PasswordCost = { memoryCost: number; timeCost: number; parallelism: number };
let passwordCost: PasswordCost = PRODUCTION_PASSWORD_COST;
export function setPasswordCost(cost: PasswordCost) {
  passwordCost = cost;
}

// A hash records its own parameters, so verifyPassword checks hashes made at either cost.
export const hashPassword = (password: string) =>
  argon2.hash(password, { type: argon2.argon2id, ...passwordCost });
export const verifyPassword = (hash: string, password: string) => argon2.verify(hash, password);
