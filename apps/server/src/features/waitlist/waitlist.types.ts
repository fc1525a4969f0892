import type { Message } from '@waitlist/contract';
import type { Database, Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import type { Clock } from '../../lib/clock.ts';

/** A service or staff member of the business, as the waitlist names it on an entry (issue 26). */
export interface CatalogItem {
  id: string;
  name: string;
}

/** The business's services and staff (features/services' repo owns them), wired in composition.ts. */
export interface EntryCatalog {
  findService(executor: Executor, userId: string, id: string): Promise<CatalogItem | undefined>;
  findStaff(executor: Executor, userId: string, id: string): Promise<CatalogItem | undefined>;
  listServices(executor: Executor, userId: string): Promise<CatalogItem[]>;
  listStaff(executor: Executor, userId: string): Promise<CatalogItem[]>;
}

/** What the waitlist needs from other features, wired in composition.ts (decision 0008). */
export interface WaitlistDeps {
  db: Database;
  clock: Clock;
  /** Wakes the outbox worker; called after a commit that queued a text. */
  onOutboxWrite?: () => void;
  /** Why the owner's waitlist is read-only now (billing standing), or null. */
  readOnlyReason: (user: UserRow, now: Date) => string | null;
  /** The owners (features/auth). */
  users: {
    lockUser(executor: Executor, userId: string): Promise<UserRow | undefined>;
    setTimeZone(executor: Executor, userId: string, timeZone: string, now: Date): Promise<void>;
    setPlainSpanishLetters(executor: Executor, userId: string, plain: boolean, now: Date): Promise<void>;
  };
  /** Texts (features/messaging): queue one in the caller's transaction, read a conversation. */
  texts: {
    enqueueSms(
      executor: Executor,
      input: { userId: string; customerId: string; to: string; body: string; now: Date },
    ): Promise<{ messageId: string }>;
    conversation(userId: string, customerId: string): Promise<Message[]>;
    message(id: string): Promise<Message | undefined>;
    /** The phones that opted out of the business (issue 24): a customer added with one starts opted out. */
    optOutsOf(executor: Executor, userId: string, phones: string[]): Promise<Map<string, Date>>;
  };
  /** The services and staff an entry may name (features/services). */
  catalog: EntryCatalog;
}

/** Locks the owner's row in `tx` and refuses when the waitlist is read-only now. */
export type WritableOwner = (tx: Executor, userId: string, now: Date) => Promise<UserRow>;
