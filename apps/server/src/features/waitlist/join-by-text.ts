import {
  businessNameIn,
  customerWords,
  joinRecordMessages,
  LOCALES,
  type Locale,
  normalizeReply,
  readReply,
} from '@waitlist/contract';
import type { Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import { hasRoom, optOutFields } from './customer-fields.ts';
import * as joinRepo from './join.repo.ts';
import type { JoinDeps, StrangerAction } from './join.service.ts';
import * as repo from './waitlist.repo.ts';

/** Confirmation texts a day to one phone that asked by texting JOIN. */
export const JOIN_TEXTS_PER_DAY = 3;

/** The business's name as texts and the join page give it, in a language (an unnamed one: "Your business"). */
export const businessOf = (owner: UserRow, language: Locale = 'en') =>
  businessNameIn(owner.businessName, language);

/** "JOIN Priya Shah" → "Priya Shah": what follows the join word, as typed (its case and accents kept). */
const joinWordPrefixOf = (language: Locale) =>
  new RegExp(
    `^[^\\p{L}\\p{N}]*(?:${customerWords(language)
      .keywords.join.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|')})(?![\\p{L}\\p{N}])[\\s,:.-]*`,
    'iu',
  );
const joinWordPrefixes = LOCALES.map((language) => ({ language, prefix: joinWordPrefixOf(language) }));

/** The language of a JOIN text (issue 28): the language its join word is in (UNIRME: Spanish), else English. */
const joinLanguageOf = (body: string): Locale =>
  joinWordPrefixes.find(({ prefix }) => prefix.test(normalizeReply(body)) || prefix.test(body))?.language ??
  'en';

/** A text to a business from a number that is not its customer, inside the inbound transaction. */
export interface StrangerText {
  tx: Executor;
  userId: string;
  from: string;
  body: string;
  /** The stop, start or help keyword texting read (it has recorded a stop as an opt-out already). */
  keyword: 'stop' | 'start' | 'help' | null;
  messageId: string;
  now: Date;
  reply: (body: string) => Promise<void>;
}

/** The confirmation text (double opt-in), as the join service sends it under the business's caps. */
export interface Confirmation {
  fits(executor: Executor, owner: UserRow, now: Date): Promise<boolean>;
  send(executor: Executor, owner: UserRow, phone: string, now: Date, language?: Locale): Promise<boolean>;
}

type PendingJoin = NonNullable<Awaited<ReturnType<typeof joinRepo.pendingJoinRequest>>>;
type ByTextDeps = Pick<JoinDeps, 'owners' | 'optOuts' | 'readOnlyReason' | 'enqueueSms'>;

/**
 * Joining by text (issue 15): JOIN starts a request and gets the confirmation text; the customer's claim word
 * (YES) confirms a pending one and makes them waiting; STOP cancels it.
 */
export function createJoinByText(deps: ByTextDeps, confirmation: Confirmation) {
  const { owners } = deps;

  /** A stop keyword while a join request waited: it is cancelled, and the customer told so. */
  async function cancel(input: StrangerText, pending: PendingJoin | undefined): Promise<StrangerAction> {
    const { tx, userId, from } = input;
    await joinRepo.settleJoinRequests(tx, userId, from, { status: 'cancelled' });
    const owner = await owners.lockUser(tx, userId);
    const language = pending?.language ?? 'en';
    if (owner) await input.reply(customerWords(language).texts.joinStopped(businessOf(owner, language)));
    return 'opted_out';
  }

  /** The customer's YES to a pending request: a waiting customer (or a kind "full"), with the YES as proof. */
  async function confirm(input: StrangerText, pending: PendingJoin): Promise<StrangerAction> {
    const { tx, userId, from, now } = input;
    const owner = await owners.lockUser(tx, userId);
    if (!owner) return 'ignored';
    const existing = await repo.findActiveByPhone(tx, userId, from);
    if (!existing && !(await hasRoom(tx, owner, 1))) {
      await joinRepo.settleJoinRequests(tx, userId, from, { status: 'full' });
      const body = customerWords(pending.language).texts.joinFull(businessOf(owner, pending.language));
      await deps.enqueueSms(tx, { userId, to: from, body, language: pending.language, now });
      return 'ignored';
    }
    const optOuts = existing ? new Map<string, Date>() : await deps.optOuts.optOutsOf(tx, userId, [from]);
    const customer =
      existing ??
      (
        await repo.insertCustomers(tx, [
          {
            userId,
            name: pending.name,
            phone: from,
            ...optOutFields(optOuts, from),
            notes: '',
            consentMethod: pending.method,
            consentedAt: now,
            preferences: [],
            // The language they chose on the join page (issue 28).
            language: pending.language,
            // The service and staff member chosen on the join page (issue 26), if they are still there.
            serviceId: pending.serviceId,
            staffId: pending.staffId,
            position: await repo.nextPosition(tx, userId),
            createdAt: now,
            updatedAt: now,
          },
        ])
      )[0]!;
    await joinRepo.settleJoinRequests(tx, userId, from, {
      status: 'confirmed',
      confirmedAt: now,
      confirmationMessageId: input.messageId,
      customerId: customer.id,
    });
    // The welcome in the request's language (the customer's now).
    const language = customer.language;
    const body = customerWords(language).texts.joinWelcome(businessOf(owner, language));
    await deps.enqueueSms(tx, { userId, customerId: customer.id, to: from, body, language, now });
    return 'joined';
  }

  /** JOIN from a number with no pending request: a request and its confirmation text, within the caps. */
  async function request(input: StrangerText): Promise<StrangerAction> {
    const { tx, userId, from, now } = input;
    const owner = await owners.lockUser(tx, userId);
    if (!owner || deps.readOnlyReason(owner, now) || !(await hasRoom(tx, owner, 1))) return 'ignored';
    // At most JOIN_TEXTS_PER_DAY confirmation texts a day to one phone (counted in this transaction: the
    // rate limiter would wait on it).
    const since = new Date(now.getTime() - 24 * 60 * 60 * 1000);
    if ((await joinRepo.joinRequestsSince(tx, userId, from, since)) >= JOIN_TEXTS_PER_DAY) return 'ignored';
    if (!(await confirmation.fits(tx, owner, now))) return 'ignored';
    const language = joinLanguageOf(input.body);
    const prefix = joinWordPrefixOf(language);
    const name = input.body.trim().replace(prefix, '').slice(0, 100) || joinRecordMessages.unnamedCustomer;
    // The phone's own JOIN is its consent again: it lifts an earlier STOP ("Reply JOIN to start again").
    await deps.optOuts.removeOptOut(tx, userId, from);
    if (!(await confirmation.send(tx, owner, from, now, language))) return 'ignored';
    await joinRepo.insertJoinRequest(tx, {
      userId,
      name,
      phone: from,
      method: 'text_keyword',
      language,
      consentText: joinRecordMessages.textConsent,
      createdAt: now,
    });
    return 'join_requested';
  }

  /** What a stranger's text does: read as the catalogue reads replies (`readReply`). */
  return async function onStranger(input: StrangerText): Promise<StrangerAction> {
    const pending = await joinRepo.pendingJoinRequest(input.tx, input.userId, input.from);
    if (input.keyword === 'stop') return pending ? cancel(input, pending) : 'ignored';
    if (input.keyword) return 'ignored';
    const reply = readReply(input.body);
    if (pending && reply.claim) return confirm(input, pending);
    if (reply.keyword === 'join' && !pending) return request(input);
    return 'ignored';
  };
}
