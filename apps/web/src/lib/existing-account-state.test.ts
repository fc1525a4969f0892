import { describe, expect, it } from 'vitest';
import { existingAccountState } from './existing-account-state.ts';

describe('the existing-account state of a location', () => {
  it('reads the flag and the reason a failed social sign-in left', () => {
    expect(existingAccountState({ state: { existingAccount: true, reason: 'Use your password' } })).toEqual({
      existingAccount: true,
      reason: 'Use your password',
    });
  });

  it('gives an empty reason when none came, and a text when something else did', () => {
    expect(existingAccountState({ state: { existingAccount: true } })).toEqual({
      existingAccount: true,
      reason: '',
    });
    expect(existingAccountState({ state: { existingAccount: true, reason: 409 } })?.reason).toBe('409');
  });

  it('is null without the flag set to true', () => {
    expect(existingAccountState({ state: null })).toBeNull();
    expect(existingAccountState({ state: undefined })).toBeNull();
    expect(existingAccountState({ state: { from: '/settings' } })).toBeNull();
    expect(existingAccountState({ state: { existingAccount: 'true', reason: 'x' } })).toBeNull();
  });
});
