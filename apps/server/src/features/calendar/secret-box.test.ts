import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openSecret, SecretBoxError, sealSecret } from './secret-box.ts';

const key = randomBytes(32);

/** Flips one bit of one base64url part of the box. */
function tamper(box: string, partIndex: number): string {
  const parts = box.split('.');
  const bytes = Buffer.from(parts[partIndex] ?? '', 'base64url');
  bytes[0] = (bytes[0] ?? 0) ^ 1;
  parts[partIndex] = bytes.toString('base64url');
  return parts.join('.');
}

describe('secret box', () => {
  it('opens what it sealed, any text, and two seals of one secret differ', () => {
    for (const secret of ['app-password-1', '', 'ünïcødé 🔑 '.repeat(50)]) {
      const box = sealSecret(secret, key);
      expect(openSecret(box, key)).toBe(secret);
    }
    const first = sealSecret('same', key);
    const second = sealSecret('same', key);
    expect(first).not.toBe(second);
    expect(first).toMatch(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(first).not.toContain('same');
  });

  it('refuses a box with its IV, tag or ciphertext altered, with a clear error', () => {
    const box = sealSecret('app-password-1', key);
    for (const part of [1, 2, 3]) {
      expect(() => openSecret(tamper(box, part), key)).toThrow(/tampered with or sealed with another key/);
    }
  });

  it('refuses a box sealed with another key', () => {
    const box = sealSecret('app-password-1', randomBytes(32));
    expect(() => openSecret(box, key)).toThrow(SecretBoxError);
  });

  it('refuses text that is not a box, and a key that is not 32 bytes', () => {
    expect(() => openSecret('app-password-1', key)).toThrow(/Not a secret box/);
    expect(() => openSecret(`v2${sealSecret('x', key).slice(2)}`, key)).toThrow(/Not a secret box/);
    expect(() => openSecret('v1.AAAA.AAAA.AAAA', key)).toThrow(/malformed/);
    expect(() => sealSecret('x', randomBytes(16))).toThrow(/32 bytes, not 16/);
    expect(() => openSecret(sealSecret('x', key), randomBytes(31))).toThrow(/32 bytes/);
  });
});
