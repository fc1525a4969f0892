import { offerMessages, type UpdateCustomerBody, waitlistCap, waitlistMessages } from '@waitlist/contract';
import type { Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import { BadRequest, Forbidden } from '../../lib/errors.ts';
import * as repo from './waitlist.repo.ts';
import type { CatalogItem, EntryCatalog } from './waitlist.types.ts';

/** Rules a new or edited customer meets, shared by the owner's edits, the CSV import and joining. */

/** Whether `adding` more customers fit the plan's cap; call under the owner's row lock before adding. */
export async function hasRoom(executor: Executor, user: UserRow, adding: number): Promise<boolean> {
  const free = await freePlaces(executor, user);
  return free === null || adding <= free;
}

/** The places left on the waitlist under the plan's cap (null: no cap); call under the owner's row lock. */
export async function freePlaces(executor: Executor, user: UserRow): Promise<number | null> {
  const cap = waitlistCap(user.subscriptionPlan);
  return cap === null ? null : Math.max(0, cap - (await repo.countActive(executor, user.id)));
}

/** Refuses a new customer past the plan's cap; call under the owner's row lock. */
export async function assertRoom(executor: Executor, user: UserRow, adding: number) {
  if (await hasRoom(executor, user, adding)) return;
  const cap = waitlistCap(user.subscriptionPlan) ?? 0;
  throw new Forbidden(waitlistMessages.capReached(user.subscriptionPlan, cap));
}

/**
 * The opt-out fields a new (or renumbered) customer starts with: the business's opt-out of the phone, kept
 * by features/messaging, so a customer removed and added again keeps it (issue 24).
 */
export function optOutFields(optOuts: Map<string, Date>, phone: string) {
  const at = optOuts.get(phone);
  return at ? { optedOut: true, optedOutAt: at } : { optedOut: false, optedOutAt: null };
}

type EntryFieldsBody = Pick<UpdateCustomerBody, 'serviceId' | 'staffId' | 'timeZone' | 'vip' | 'pinned'>;

/**
 * What an entry waits for and how the offer policy treats it (issue 26), as given: only the fields the body
 * sets. A service or staff member must be the business's own (400 naming the field otherwise).
 */
export async function entryFieldsOf(
  executor: Executor,
  catalog: EntryCatalog,
  userId: string,
  body: EntryFieldsBody,
) {
  if (body.serviceId && !(await catalog.findService(executor, userId, body.serviceId))) {
    throw new BadRequest(offerMessages.serviceNotFound, { serviceId: offerMessages.serviceNotFound });
  }
  if (body.staffId && !(await catalog.findStaff(executor, userId, body.staffId))) {
    throw new BadRequest(offerMessages.staffNotFound, { staffId: offerMessages.staffNotFound });
  }
  return {
    ...(body.serviceId !== undefined && { serviceId: body.serviceId }),
    ...(body.staffId !== undefined && { staffId: body.staffId }),
    ...(body.timeZone !== undefined && { timeZone: body.timeZone }),
    ...(body.vip !== undefined && { vip: body.vip }),
    ...(body.pinned !== undefined && { pinned: body.pinned }),
  };
}

/** The id when it names the business's own item, else null (the join page drops a foreign id silently). */
export async function ownIdOrNull(
  find: (executor: Executor, userId: string, id: string) => Promise<CatalogItem | undefined>,
  executor: Executor,
  userId: string,
  id: string | null | undefined,
): Promise<string | null> {
  if (!id) return null;
  return (await find(executor, userId, id))?.id ?? null;
}
