import {
  type CreateCustomerBody,
  customerLanguages,
  type Locale,
  type MessageTemplateKey,
  messageTemplateKeys,
  normalizePhone,
  type UpdateCustomerBody,
  waitlistCap,
  waitlistMessages,
} from '@waitlist/contract';
import type { Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../lib/errors.ts';
import { assertRoom, entryFieldsOf, optOutFields } from './customer-fields.ts';
import { customerImport } from './customer-import.ts';
import { customerRestore } from './customer-restore.ts';
import * as repo from './waitlist.repo.ts';
import type { WaitlistDeps, WritableOwner } from './waitlist.types.ts';

export type { StoredReplyVerdict } from './customer-changes.repo.ts';
export type { StrangerText } from './join-by-text.ts';
export type { WaitlistDeps } from './waitlist.types.ts';

function duplicate(phone: string) {
  return new Conflict(waitlistMessages.duplicatePhone(phone), {
    phone: waitlistMessages.duplicatePhone(phone),
  });
}

export type WaitlistService = ReturnType<typeof createWaitlistService>;

/**
 * The waitlist's service: one object composed of its parts by concern (the list and its order, adding and
 * editing customers, the CSV import, a customer's texts, templates and settings), which share the
 * dependencies and the writable-owner check.
 */
export function createWaitlistService(deps: WaitlistDeps) {
  const { clock, users, readOnlyReason } = deps;

  function assertWritable(user: UserRow, now: Date) {
    const reason = readOnlyReason(user, now);
    if (reason) throw new Forbidden(reason);
  }

  /**
   * The owner's row locked in `tx`, refused when the waitlist is read-only now (billing standing). A write
   * decides from the row it locks, never from the session's copy read before the body arrived (issue 24).
   */
  async function writableOwner(tx: Executor, userId: string, now: Date) {
    const owner = await users.lockUser(tx, userId);
    if (!owner) throw new NotFound(waitlistMessages.customerNotFound);
    assertWritable(owner, now);
    return owner;
  }

  return {
    readOnlyReason: (user: UserRow) => readOnlyReason(user, clock.now()),
    ...waitlistOrder(deps, writableOwner),
    ...customerEdits(deps, writableOwner),
    ...customerRestore(deps, writableOwner),
    ...customerImport(deps, writableOwner),
    ...customerTexts(deps, writableOwner),
    ...ownerSettings(deps),
  };
}

/** The waitlist as the owner sees it, and its order. */
function waitlistOrder(deps: WaitlistDeps, writableOwner: WritableOwner) {
  const { db, clock, readOnlyReason } = deps;
  return {
    async list(user: UserRow, filter: repo.ListFilter) {
      const [rows, count, places] = await Promise.all([
        repo.listCustomers(db, user.id, filter),
        repo.countActive(db, user.id),
        repo.placesInLine(db, user.id),
      ]);
      const reason = readOnlyReason(user, clock.now());
      return {
        data: rows.map((row) => ({ ...repo.customerDto(row), place: places.get(row.id) ?? null })),
        count,
        cap: waitlistCap(user.subscriptionPlan),
        plan: user.subscriptionPlan,
        readOnly: reason !== null,
        readOnlyReason: reason,
      };
    },

    /**
     * The listed customers take the positions they already hold between them, in the new order: the whole
     * waitlist, or only the part the screen shows (a filtered list), may be reordered.
     */
    async reorder(user: UserRow, ids: string[]) {
      const now = clock.now();
      if (new Set(ids).size !== ids.length) throw new BadRequest(waitlistMessages.reorderMismatch);
      return db.transaction(async (tx) => {
        await writableOwner(tx, user.id, now);
        const rows = await repo.positionsOf(tx, user.id, ids);
        if (rows.length !== ids.length) throw new BadRequest(waitlistMessages.reorderMismatch);
        const positions = rows.map((row) => row.position).sort((a, b) => a - b);
        // Distinct positions even if two customers shared one.
        for (let i = 1; i < positions.length; i += 1) {
          if (positions[i]! <= positions[i - 1]!) positions[i] = positions[i - 1]! + 1;
        }
        for (const [index, id] of ids.entries()) {
          await repo.updateCustomer(tx, id, { position: positions[index]! }, now);
        }
        const places = await repo.placesInLine(tx, user.id);
        return (await repo.listCustomers(tx, user.id)).map((row) => ({
          ...repo.customerDto(row),
          place: places.get(row.id) ?? null,
        }));
      });
    },
  };
}

/** Adding, editing and removing one customer. */
function customerEdits(deps: WaitlistDeps, writableOwner: WritableOwner) {
  const { db, clock, texts, catalog } = deps;
  return {
    async create(user: UserRow, body: CreateCustomerBody) {
      const now = clock.now();
      const phone = normalizePhone(body.phone);
      if (!phone)
        throw new BadRequest(waitlistMessages.invalidPhone, { phone: waitlistMessages.invalidPhone });
      try {
        return await db.transaction(async (tx) => {
          const owner = await writableOwner(tx, user.id, now);
          if (await repo.findActiveByPhone(tx, user.id, phone)) throw duplicate(phone);
          await assertRoom(tx, owner, 1);
          const entry = await entryFieldsOf(tx, catalog, user.id, body);
          const optOuts = await texts.optOutsOf(tx, user.id, [phone]);
          const [row] = await repo.insertCustomers(tx, [
            {
              userId: user.id,
              name: body.name,
              phone,
              ...optOutFields(optOuts, phone),
              notes: body.notes ?? '',
              consentMethod: body.consentMethod,
              consentedAt: now,
              preferences: body.preferences ?? [],
              language: body.language ?? 'en',
              ...entry,
              position: await repo.nextPosition(tx, user.id),
              createdAt: now,
              updatedAt: now,
            },
          ]);
          return repo.customerDto(row!);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicate(phone);
        throw error;
      }
    },

    async update(user: UserRow, id: string, body: UpdateCustomerBody) {
      const now = clock.now();
      const phone = body.phone === undefined ? undefined : normalizePhone(body.phone);
      if (phone === null)
        throw new BadRequest(waitlistMessages.invalidPhone, { phone: waitlistMessages.invalidPhone });
      try {
        return await db.transaction(async (tx) => {
          await writableOwner(tx, user.id, now);
          const current = await repo.findCustomer(tx, user.id, id);
          if (!current) throw new NotFound(waitlistMessages.customerNotFound);
          if (phone && phone !== current.phone && (await repo.findActiveByPhone(tx, user.id, phone))) {
            throw duplicate(phone);
          }
          const entry = await entryFieldsOf(tx, catalog, user.id, body);
          // A new number carries its own opt-out, not the old number's.
          const renumbered =
            phone && phone !== current.phone
              ? optOutFields(await texts.optOutsOf(tx, user.id, [phone]), phone)
              : {};
          const row = await repo.updateCustomer(
            tx,
            id,
            {
              ...(body.name !== undefined && { name: body.name }),
              ...(phone !== undefined && { phone }),
              ...(body.notes !== undefined && { notes: body.notes }),
              ...(body.consentMethod !== undefined && {
                consentMethod: body.consentMethod,
                consentedAt: now,
              }),
              ...(body.preferences !== undefined && { preferences: body.preferences }),
              ...(body.status !== undefined && { status: body.status }),
              ...(body.language !== undefined && { language: body.language }),
              ...entry,
              ...renumbered,
            },
            now,
          );
          return repo.customerDto(row!);
        });
      } catch (error) {
        if (isUniqueViolation(error) && phone) throw duplicate(phone);
        throw error;
      }
    },

    async remove(user: UserRow, id: string) {
      const now = clock.now();
      return db.transaction(async (tx) => {
        await writableOwner(tx, user.id, now);
        const row = await repo.removeCustomer(tx, user.id, id, now);
        if (!row) throw new NotFound(waitlistMessages.customerNotFound);
        return repo.customerDto(row);
      });
    },
  };
}

/** A customer's texts: the conversation, and a text from the owner. */
function customerTexts(deps: WaitlistDeps, writableOwner: WritableOwner) {
  const { db, clock, texts } = deps;
  return {
    async conversation(user: UserRow, id: string) {
      const customer = await repo.findCustomerAnyStatus(db, user.id, id);
      if (!customer) throw new NotFound(waitlistMessages.customerNotFound);
      return { customer: repo.customerDto(customer), data: await texts.conversation(user.id, id) };
    },

    async sendText(user: UserRow, id: string, body: string) {
      const now = clock.now();
      const result = await db.transaction(async (tx) => {
        await writableOwner(tx, user.id, now);
        const customer = await repo.findCustomer(tx, user.id, id);
        if (!customer) throw new NotFound(waitlistMessages.customerNotFound);
        return texts.enqueueSms(tx, {
          userId: user.id,
          customerId: customer.id,
          to: customer.phone,
          body,
          now,
        });
      });
      deps.onOutboxWrite?.();
      return (await texts.message(result.messageId))!;
    },
  };
}

/** The owner's message templates and time zone. */
function ownerSettings(deps: WaitlistDeps) {
  const { db, clock, users } = deps;
  return {
    /** Every template in both languages (issue 28): English first, then Spanish. */
    async templates(user: UserRow) {
      const versions = await Promise.all(
        customerLanguages.map(async (language) => ({
          language,
          all: await repo.templatesOf(db, user.id, language),
        })),
      );
      return versions.flatMap(({ language, all }) =>
        messageTemplateKeys.map((key) => ({ key, language, ...all[key] })),
      );
    },

    async updateTemplate(user: UserRow, key: MessageTemplateKey, body: string, language: Locale = 'en') {
      await repo.upsertTemplate(db, user.id, key, body, clock.now(), language);
      return { key, language, body, isDefault: false };
    },

    async setPlainSpanishLetters(user: UserRow, plainSpanishLetters: boolean) {
      await users.setPlainSpanishLetters(db, user.id, plainSpanishLetters, clock.now());
      return { plainSpanishLetters };
    },

    async setTimeZone(user: UserRow, timeZone: string) {
      await users.setTimeZone(db, user.id, timeZone, clock.now());
      return { timeZone };
    },
  };
}
