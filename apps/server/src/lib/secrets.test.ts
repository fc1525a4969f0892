import { describe, expect, it, vi } from 'vitest';

/** The PHC string's parts: `$argon2id$v=19$m=65536,p=4,t=3$salt$hash` (this library writes m, p, t). */
function argon2Parameters(hash: string) {
  const [, algorithm, version, parameters] = hash.split('$');
  return {
    algorithm,
    version,
    ...Object.fromEntries(parameters!.split(',').map((pair) => pair.split('=') as [string, string])),
  };
}

describe('password hashing cost', () => {
  it('hashes at the production parameters (argon2id, m=64 MiB, t=3, p=4) unless a test set-up lowers them', async () => {
    // A fresh copy of the module, as a server process loads it: the suite's set-up file (src/test/setup.ts)
    // lowered the cost only in the copy the other tests share.
    vi.resetModules();
    const fresh = await import('./secrets.ts');
    const hash = await fresh.hashPassword('correct horse battery staple');
    expect(argon2Parameters(hash)).toEqual({
      algorithm: 'argon2id',
      version: 'v=19',
      m: '65536',
      t: '3',
      p: '4',
    });
    expect(await fresh.verifyPassword(hash, 'correct horse battery staple')).toBe(true);
    expect(await fresh.verifyPassword(hash, 'wrong')).toBe(false);
  });

  it('verifies a hash made at the test cost in a process at the production cost', async () => {
    const shared = await import('./secrets.ts');
    shared.setPasswordCost(shared.TEST_PASSWORD_COST);
    const cheap = await shared.hashPassword('pw');
    expect(argon2Parameters(cheap)).toEqual({
      algorithm: 'argon2id',
      version: 'v=19',
      m: '1024',
      t: '1',
      p: '1',
    });
    vi.resetModules();
    const fresh = await import('./secrets.ts');
    expect(await fresh.verifyPassword(cheap, 'pw')).toBe(true);
  });
});
