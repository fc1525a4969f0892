/**
 * The navigation state a failed social sign-in of an existing account carries (use-social-attempt.ts).
 * Read here, below the features, so the route guard can tell it apart without putting the existing-account
 * screen in the first bundle.
 */
export interface ExistingAccountState {
  existingAccount: true;
  reason: string;
}

/** The existing-account state a location carries, or null when it carries none. */
export function existingAccountState(location: { state: unknown }): ExistingAccountState | null {
  const state = location.state as Partial<ExistingAccountState> | null;
  return state?.existingAccount === true
    ? { existingAccount: true, reason: String(state.reason ?? '') }
    : null;
}
