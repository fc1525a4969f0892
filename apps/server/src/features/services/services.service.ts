import {
  authMessages,
  MAX_SERVICES,
  MAX_STAFF,
  type OfferSettings,
  offerMessages,
  type ServiceBody,
  type StaffBody,
} from '@waitlist/contract';
import type { Database, Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import type { Clock } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../lib/errors.ts';
import * as repo from './services.repo.ts';

/** What services, staff and the offer rules need from other features, wired in composition.ts (decision 0008). */
export interface ServicesDeps {
  db: Database;
  clock: Clock;
  /** Why the owner's account is read-only now (billing standing), or null. */
  readOnlyReason: (user: UserRow, now: Date) => string | null;
  /** The owners (features/auth's repo owns `users`). */
  users: { lockUser(executor: Executor, userId: string): Promise<UserRow | undefined> };
}

export type ServicesService = ReturnType<typeof createServicesService>;

/** The body as stored: a name without its outer spaces, a price or null. */
const serviceValues = (body: ServiceBody) => ({
  name: body.name.trim(),
  durationMinutes: body.durationMinutes,
  priceCents: body.priceCents ?? null,
});

const serviceNameTaken = (name: string) =>
  new Conflict(offerMessages.serviceNameTaken(name), { name: offerMessages.serviceNameTaken(name) });
const staffNameTaken = (name: string) =>
  new Conflict(offerMessages.staffNameTaken(name), { name: offerMessages.staffNameTaken(name) });

/** Runs `write`; a unique violation (the name index, lower(name) per owner) becomes `taken`. */
async function withUniqueName<T>(write: () => Promise<T>, taken: () => Conflict): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}

/**
 * A business's services (name, length, price), its staff and its offer rules (quiet hours, the daily cap),
 * issue 26. Names are unique per business in any case; a business has at most MAX_SERVICES services and
 * MAX_STAFF staff members (issue 38). Writes lock the owner's row and refuse while the account is read-only,
 * as the waitlist's do.
 */
export function createServicesService(deps: ServicesDeps) {
  const { db, clock, users, readOnlyReason } = deps;

  /**
   * Runs `write` in a transaction holding the owner's row lock, refused when the account is read-only now:
   * decided from the locked row, never from the session's copy read before the body arrived (issue 24).
   */
  function asWritableOwner<T>(userId: string, write: (tx: Executor, now: Date) => Promise<T>) {
    const now = clock.now();
    return db.transaction(async (tx) => {
      const owner = await users.lockUser(tx, userId);
      if (!owner) throw new NotFound(authMessages.notFound);
      const reason = readOnlyReason(owner, now);
      if (reason) throw new Forbidden(reason);
      return write(tx, now);
    });
  }

  return {
    ...serviceEdits(asWritableOwner, db),
    ...staffEdits(asWritableOwner, db),

    offerSettings: (user: UserRow): Promise<OfferSettings> => repo.offerSettingsOf(db, user.id),

    saveOfferSettings: (user: UserRow, body: OfferSettings): Promise<OfferSettings> =>
      asWritableOwner(user.id, (tx, now) => repo.saveOfferSettings(tx, user.id, body, now)),
  };
}

type AsWritableOwner = <T>(userId: string, write: (tx: Executor, now: Date) => Promise<T>) => Promise<T>;

function serviceEdits(asWritableOwner: AsWritableOwner, db: Database) {
  return {
    listServices: async (user: UserRow) => (await repo.listServices(db, user.id)).map(repo.serviceDto),

    createService: (user: UserRow, body: ServiceBody) => {
      const values = serviceValues(body);
      return withUniqueName(
        () =>
          asWritableOwner(user.id, async (tx) => {
            if (await repo.findServiceByName(tx, user.id, values.name)) throw serviceNameTaken(values.name);
            // Counted under the owner's row lock: a burst of creates cannot pass the limit together.
            if ((await repo.countServices(tx, user.id)) >= MAX_SERVICES)
              throw new BadRequest(offerMessages.tooManyServices);
            return repo.serviceDto(await repo.insertService(tx, { userId: user.id, ...values }));
          }),
        () => serviceNameTaken(values.name),
      );
    },

    updateService: (user: UserRow, id: string, body: ServiceBody) => {
      const values = serviceValues(body);
      return withUniqueName(
        () =>
          asWritableOwner(user.id, async (tx) => {
            if (!(await repo.findService(tx, user.id, id))) throw new NotFound(offerMessages.serviceNotFound);
            const same = await repo.findServiceByName(tx, user.id, values.name);
            if (same && same.id !== id) throw serviceNameTaken(values.name);
            return repo.serviceDto((await repo.updateService(tx, user.id, id, values))!);
          }),
        () => serviceNameTaken(values.name),
      );
    },

    deleteService: (user: UserRow, id: string) =>
      asWritableOwner(user.id, async (tx) => {
        if (!(await repo.deleteService(tx, user.id, id))) throw new NotFound(offerMessages.serviceNotFound);
      }),
  };
}

function staffEdits(asWritableOwner: AsWritableOwner, db: Database) {
  return {
    listStaff: async (user: UserRow) => (await repo.listStaff(db, user.id)).map(repo.staffDto),

    createStaff: (user: UserRow, body: StaffBody) => {
      const name = body.name.trim();
      return withUniqueName(
        () =>
          asWritableOwner(user.id, async (tx) => {
            if (await repo.findStaffByName(tx, user.id, name)) throw staffNameTaken(name);
            if ((await repo.countStaff(tx, user.id)) >= MAX_STAFF)
              throw new BadRequest(offerMessages.tooManyStaff);
            return repo.staffDto(await repo.insertStaff(tx, { userId: user.id, name }));
          }),
        () => staffNameTaken(name),
      );
    },

    updateStaff: (user: UserRow, id: string, body: StaffBody) => {
      const name = body.name.trim();
      return withUniqueName(
        () =>
          asWritableOwner(user.id, async (tx) => {
            if (!(await repo.findStaff(tx, user.id, id))) throw new NotFound(offerMessages.staffNotFound);
            const same = await repo.findStaffByName(tx, user.id, name);
            if (same && same.id !== id) throw staffNameTaken(name);
            return repo.staffDto((await repo.updateStaff(tx, user.id, id, { name }))!);
          }),
        () => staffNameTaken(name),
      );
    },

    deleteStaff: (user: UserRow, id: string) =>
      asWritableOwner(user.id, async (tx) => {
        if (!(await repo.deleteStaff(tx, user.id, id))) throw new NotFound(offerMessages.staffNotFound);
      }),
  };
}
