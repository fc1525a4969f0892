/** How an identity check fails; features/auth turns each into the API's answer (400, 401, 503). */

export class IdentityProofMissing extends Error {
  constructor() {
    super('no proof of identity was sent');
    this.name = 'IdentityProofMissing';
  }
}

/** The proof is not genuine, has expired, or was issued for another app. `reason` is shown to the user. */
export class IdentityRejected extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'IdentityRejected';
  }
}

/** The provider could not be reached or answered with an error of its own: try again later. */
export class IdentityUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'IdentityUnavailable';
  }
}
