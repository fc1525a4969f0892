import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Calendar tokens and app passwords at rest: AES-256-GCM with a 32-byte key the caller passes (from the
 * environment later). A box is one string, `v1.<iv>.<tag>.<ciphertext>`, each part base64url; the random
 * 12-byte IV makes two boxes of the same secret differ. GCM's tag makes `openSecret` refuse a box that was
 * altered or sealed with another key, instead of returning garbage.
 */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

function checkKey(key: Uint8Array): void {
  if (key.length !== 32) throw new SecretBoxError(`The secret box key must be 32 bytes, not ${key.length}`);
}

export function sealSecret(plaintext: string, key: Uint8Array): string {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv, tag, ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

export function openSecret(box: string, key: Uint8Array): string {
  checkKey(key);
  const parts = box.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) {
    throw new SecretBoxError('Not a secret box (expected v1.<iv>.<tag>.<ciphertext>)');
  }
  const [iv, tag, ciphertext] = parts.slice(1).map((part) => Buffer.from(part, 'base64url')) as [
    Buffer,
    Buffer,
    Buffer,
  ];
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
    throw new SecretBoxError('The secret box is malformed (IV or tag of the wrong length)');
  }
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretBoxError('The secret box was tampered with or sealed with another key');
  }
}
