import { type ImportRow, offerMessages, waitlistCap, waitlistMessages } from '@waitlist/contract';
import type { Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import { BadRequest } from '../../lib/errors.ts';
import { matcherOf } from './catalog-names.ts';
import { optOutFields } from './customer-fields.ts';
import { type ParsedRow, parseImport } from './import-rows.ts';
import * as repo from './waitlist.repo.ts';
import type { EntryCatalog, WaitlistDeps, WritableOwner } from './waitlist.types.ts';

export const MAX_IMPORT_ROWS = 1000;

/** A row with its service and staff member found among the business's own (issue 26). */
type CheckedRow = ParsedRow & {
  serviceId: string | null;
  staffId: string | null;
  serviceName: string | null;
  staffName: string | null;
};

/**
 * The service and staff names of the rows, matched ignoring case and punctuation (issue 39: "womens cut" is
 * "Women's cut"); an unknown name is the row's error, asking about the closest name when one is near.
 */
async function matchCatalog(
  executor: Executor,
  catalog: EntryCatalog,
  userId: string,
  rows: ParsedRow[],
): Promise<CheckedRow[]> {
  const none = () => ({ id: null, closest: null }) as const;
  const serviceOf = rows.some((row) => row.service)
    ? matcherOf(await catalog.listServices(executor, userId))
    : none;
  const staffOf = rows.some((row) => row.staff) ? matcherOf(await catalog.listStaff(executor, userId)) : none;
  const unknown = (message: string, closest: string | null) =>
    closest ? offerMessages.didYouMean(message, closest) : message;
  return rows.map((row) => {
    const service = row.service ? serviceOf(row.service) : null;
    const staff = row.staff ? staffOf(row.staff) : null;
    let error = row.error;
    if (!error && service && service.id === null)
      error = unknown(offerMessages.unknownService(row.service), service.closest);
    else if (!error && staff && staff.id === null)
      error = unknown(offerMessages.unknownStaff(row.staff), staff.closest);
    return {
      ...row,
      error,
      serviceId: service?.id ?? null,
      staffId: staff?.id ?? null,
      serviceName: service?.id ? service.name : null,
      staffName: staff?.id ? staff.name : null,
    };
  });
}

/** Adding customers from a CSV file: the preview with each row's errors, then the import. */
export function customerImport(deps: WaitlistDeps, writableOwner: WritableOwner) {
  const { db, clock, texts, catalog } = deps;

  /** Marks per-row errors for unknown services, duplicates (in the file and on the waitlist) and the plan cap. */
  async function checkImport(executor: Executor, user: UserRow, csv: string) {
    const parsed = parseImport(csv);
    if (parsed.length === 0) throw new BadRequest(waitlistMessages.csvEmpty);
    if (parsed.length > MAX_IMPORT_ROWS) throw new BadRequest(waitlistMessages.csvTooLarge);
    const rows = await matchCatalog(executor, catalog, user.id, parsed);
    const existing = await repo.activePhones(executor, user.id);
    const cap = waitlistCap(user.subscriptionPlan);
    let room = cap === null ? Number.POSITIVE_INFINITY : cap - existing.size;
    const seen = new Map<string, number>();
    for (const row of rows) {
      if (row.error || !row.e164) continue;
      if (existing.has(row.e164)) row.error = waitlistMessages.duplicatePhone(row.e164);
      else if (seen.has(row.e164)) row.error = `Same phone number as line ${seen.get(row.e164)}`;
      else if (room <= 0) row.error = waitlistMessages.capReached(user.subscriptionPlan, cap ?? 0);
      else {
        seen.set(row.e164, row.line);
        room -= 1;
      }
    }
    return rows;
  }

  const toDto = (rows: CheckedRow[]): ImportRow[] =>
    rows.map((row) => ({
      line: row.line,
      name: row.name,
      phone: row.e164 ?? row.phone,
      error: row.error,
      service: row.serviceName,
      staff: row.staffName,
      language: row.language,
    }));

  return {
    async importPreview(user: UserRow, csv: string) {
      const rows = toDto(await checkImport(db, user, csv));
      const invalid = rows.filter((row) => row.error).length;
      return { rows, valid: rows.length - invalid, invalid };
    },

    /** Adds the valid rows (consent 'imported'); the others come back with their errors. */
    async importCommit(user: UserRow, csv: string) {
      const now = clock.now();
      return db.transaction(async (tx) => {
        const owner = await writableOwner(tx, user.id, now);
        const rows = await checkImport(tx, owner, csv);
        const valid = rows.filter((row) => !row.error && row.e164);
        let position = await repo.nextPosition(tx, user.id);
        const optOuts = await texts.optOutsOf(
          tx,
          user.id,
          valid.map((row) => row.e164!),
        );
        await repo.insertCustomers(
          tx,
          valid.map((row) => ({
            userId: user.id,
            name: row.name,
            phone: row.e164!,
            ...optOutFields(optOuts, row.e164!),
            notes: row.notes,
            serviceId: row.serviceId,
            staffId: row.staffId,
            language: row.language,
            consentMethod: 'imported' as const,
            consentedAt: now,
            position: position++,
            createdAt: now,
            updatedAt: now,
          })),
        );
        return { imported: valid.length, rows: toDto(rows) };
      });
    },
  };
}
