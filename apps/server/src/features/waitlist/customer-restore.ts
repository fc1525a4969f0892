import { RESTORE_OLD_PLACE_DAYS, waitlistMessages } from '@waitlist/contract';
import type { UserRow } from '../../db/rows.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { Conflict, NotFound } from '../../lib/errors.ts';
import { assertRoom } from './customer-fields.ts';
import * as repo from './waitlist.repo.ts';
import type { WaitlistDeps, WritableOwner } from './waitlist.types.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Undoing a removal (issue 27): `POST /waitlist/:id/restore`, the toast's Undo and "Restore" on a removed row.
 *
 * Decided from the owner's row locked in its own transaction, like every waitlist write, so two restores of one
 * customer run one after the other: the first puts the row back, the second finds it live and answers it as it is
 * (nothing is ever inserted; the customer keeps their id, notes, preferences and conversation).
 *
 * Where they go back: a customer removed less than {@link RESTORE_OLD_PLACE_DAYS} days ago (their removal is their
 * row's last change) gets their old position back, so they stand between the same neighbours as before; one
 * removed earlier goes to the end of the line, behind everyone who waited meanwhile. Either way they are waiting
 * again (an offer or booking they had is not revived). Refused: a customer whose phone texted STOP (409; they can
 * join again themselves), a phone that is on the waitlist again as another entry (409), a full plan (403), a
 * read-only waitlist (403).
 */
export function customerRestore(deps: WaitlistDeps, writableOwner: WritableOwner) {
  const { db, clock, texts } = deps;
  return {
    async restore(user: UserRow, id: string) {
      const now = clock.now();
      try {
        return await db.transaction(async (tx) => {
          const owner = await writableOwner(tx, user.id, now);
          const row = await repo.findCustomerAnyStatus(tx, user.id, id);
          if (!row) throw new NotFound(waitlistMessages.customerNotFound);
          if (row.status !== 'removed') return repo.customerDto(row);
          const optOuts = await texts.optOutsOf(tx, user.id, [row.phone]);
          if (row.optedOut || optOuts.has(row.phone)) {
            throw new Conflict(waitlistMessages.restoreOptedOut(row.name));
          }
          if (await repo.findActiveByPhone(tx, user.id, row.phone)) throw duplicate(row.phone);
          await assertRoom(tx, owner, 1);
          const recent = now.getTime() - row.updatedAt.getTime() < RESTORE_OLD_PLACE_DAYS * DAY_MS;
          const position = recent ? row.position : await repo.nextPosition(tx, user.id);
          const restored = await repo.updateCustomer(tx, row.id, { status: 'waiting', position }, now);
          return repo.customerDto(restored!);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicate(await phoneOf(user.id, id));
        throw error;
      }
    },
  };

  async function phoneOf(userId: string, id: string) {
    return (await repo.findCustomerAnyStatus(db, userId, id))?.phone ?? '';
  }
}

function duplicate(phone: string) {
  return new Conflict(waitlistMessages.duplicatePhone(phone), {
    phone: waitlistMessages.duplicatePhone(phone),
  });
}
