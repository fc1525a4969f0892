// The SMS provider's interface and its error, apart from the factory in index.ts: the drivers (plivo.ts,
// local.ts) import these, and index.ts imports the drivers, so keeping them there would be an import cycle.

export interface SmsSendRequest {
  /** E.164, the business's verified number. */
  from: string;
  /** E.164. */
  to: string;
  text: string;
  /** Our message id: the same key never makes a second message where the provider can tell (local). */
  idempotencyKey: string;
}

export interface SmsSendResult {
  providerMessageId: string;
  /** 'delivered' when the provider knows at once (the local phone); otherwise a status callback follows. */
  status: 'sent' | 'delivered';
}

/** The registration state of a rented number: US texting needs the number registered (10DLC or toll-free). */
export type NumberState =
  | { status: 'verified' }
  | { status: 'pending' }
  | { status: 'failed'; reason: string };

export interface SmsProvider {
  readonly name: 'plivo' | 'local';
  send(request: SmsSendRequest): Promise<SmsSendResult>;
  /**
   * Texts from `from` to `to` the provider accepted between `since` and `until` (its message ids), to tell whether a send
   * whose answer was lost went out. Absent where a resend is harmless (the local phone keys by our id).
   */
  findSent?(query: { from: string; to: string; since: Date; until: Date }): Promise<string[]>;
  /** An available US number that can text, in the area code when given; null when none is available. */
  searchNumber(areaCode?: string): Promise<string | null>;
  /** Makes sure an application routes inbound texts to `messageUrl`; returns its id. */
  ensureApplication(messageUrl: string): Promise<string>;
  /** Rents `number` (E.164) and attaches it to the application. */
  rentNumber(number: string, appId: string): Promise<void>;
  numberStatus(number: string): Promise<NumberState>;
}

/**
 * A provider failure. `permanent` ones (an invalid destination, a refused request) are not retried; the
 * rest (network errors, 5xx, 429) are retried by the outbox with backoff.
 */
export class SmsProviderError extends Error {
  /**
   * `statusCode` set: the provider answered with that status, so it did not take the text. Unset (a network
   * error, a timeout): it may have taken it, and a retry asks it first (findSent).
   */
  constructor(
    message: string,
    readonly permanent = false,
    readonly statusCode?: number,
  ) {
    super(message);
    this.name = 'SmsProviderError';
  }
}
