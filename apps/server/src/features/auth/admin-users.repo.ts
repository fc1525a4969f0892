import type { AdminSortKey } from '@waitlist/contract';
import { type AnyColumn, and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import { users } from '../../db/schema.ts';
import type { UserListFilter, UserListQuery } from '../../lib/user-search.ts';

/** The admin user list over `users` (features/admin reads it through wiring.ts's adminUsers). */

/** The columns the list filters and sorts by: the table's, or those of a subquery over it. */
const listColumns = {
  id: users.id,
  firstName: users.firstName,
  email: users.email,
  businessName: users.businessName,
  subscriptionPlan: users.subscriptionPlan,
  createdAt: users.createdAt,
  verified: users.verified,
  searchText: users.searchText,
  phoneDigits: users.phoneDigits,
};
type ListColumns = Record<
  | 'id'
  | 'firstName'
  | 'email'
  | 'businessName'
  | 'subscriptionPlan'
  | 'createdAt'
  | 'verified'
  | 'searchText'
  | 'phoneDigits',
  AnyColumn
>;

/** Sort expressions; each has an index on `users` (schema.ts). Plans sort by tier, not alphabetically. */
function sortExpression(sort: AdminSortKey, t: ListColumns): SQL {
  switch (sort) {
    case 'firstName':
      return sql`lower(${t.firstName})`;
    case 'email':
      return sql`${t.email}`;
    case 'businessName':
      return sql`lower(${t.businessName})`;
    case 'subscriptionPlan':
      return sql`case ${t.subscriptionPlan} when 'free_trial' then 0 when 'starter' then 1 else 2 end`;
    case 'createdAt':
      return sql`${t.createdAt}`;
  }
}

/** `%` and `_` typed by the admin are literal characters, not wildcards. */
function containsPattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

function whereOf(filter: UserListFilter, t: ListColumns = users): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.verified !== undefined) conditions.push(eq(t.verified, filter.verified));
  if (filter.plan) conditions.push(eq(t.subscriptionPlan, filter.plan));
  for (const term of filter.search) {
    if ('text' in term) {
      // Served by the trigram index on search_text (already lower-cased).
      conditions.push(sql`${t.searchText} like ${containsPattern(term.text.toLowerCase())}`);
    } else {
      const alternatives = term.digits.map((digits) => sql`${t.phoneDigits} like ${containsPattern(digits)}`);
      conditions.push(sql`(${sql.join(alternatives, sql` or `)})`);
    }
  }
  return conditions.length ? and(...conditions) : undefined;
}

/**
 * How many rows of the sort order past the page's end the first try reads. A filter that matches as often
 * as one user in a few dozen fills the page within them.
 */
const WALK_BEYOND = 500;
/**
 * A LIMIT no query reaches. A subquery with a LIMIT is planned on its own (PostgreSQL never merges it into
 * the outer query), so its rows are found through the filter's own index, in no order, and sorted after.
 */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/**
 * One page of the matching users. Reading the sort index and skipping non-matches is fast when matches are
 * common and spread out, and slow when they cluster at its end ("sam" sorted by first name walks past every
 * Amy to Zoe: 100 ms at 100,000 users). Finding the matches through the search index and sorting them is fast
 * when they are few, and slow when they are many. PostgreSQL's planner assumes the first case, so the list
 * tries it within a bound, then falls back to the second:
 *  1. the first (page end + WALK_BEYOND) users in sort order, filtered: if the page is full there, it is the
 *     page, since every later match sorts after these;
 *  2. otherwise every match, through the filter's index, sorted (the matches are then few, or clustered).
 * Both choose the page's ids from narrow rows; the page's rows are read by id after.
 */
export async function listUsers(executor: Executor, query: UserListQuery): Promise<UserRow[]> {
  const direction = query.order === 'asc' ? asc : desc;
  // The id breaks ties, so paging never shows a user twice or skips one.
  // Filtered to one plan, every row has the same tier: the plan's sort is the id's (the primary key's order).
  const oneTier = query.sort === 'subscriptionPlan' && query.plan !== undefined;
  const orderOf = (t: ListColumns) =>
    oneTier ? [direction(t.id)] : [direction(sortExpression(query.sort, t)), direction(t.id)];
  const where = whereOf(query);
  const pageEnd = query.offset + query.limit;
  if (!where) {
    return executor
      .select()
      .from(users)
      .orderBy(...orderOf(users))
      .limit(query.limit)
      .offset(query.offset);
  }
  // Narrow rows (the columns the page is chosen by) while choosing: 5,000 candidates sort in half the time.
  const chooseFrom = (name: string, ordered: boolean, limit: number) => {
    const inner = executor
      .select(listColumns)
      .from(users)
      .where(ordered ? undefined : where);
    return (ordered ? inner.orderBy(...orderOf(users)) : inner).limit(limit).as(name);
  };
  const pageIds = async (source: ReturnType<typeof chooseFrom>, filtered: boolean) =>
    executor
      .select({ id: source.id })
      .from(source)
      .where(filtered ? undefined : whereOf(query, source))
      .orderBy(...orderOf(source))
      .limit(query.limit)
      .offset(query.offset);
  let ids = await pageIds(chooseFrom('walked', true, pageEnd + WALK_BEYOND), false);
  if (ids.length < query.limit) ids = await pageIds(chooseFrom('matching', false, UNBOUNDED), true);
  if (ids.length === 0) return [];
  const rows = await executor
    .select()
    .from(users)
    .where(
      inArray(
        users.id,
        ids.map((row) => row.id),
      ),
    );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((row) => byId.get(row.id) ?? []);
}

/**
 * The users matching `filter`, counted up to `upTo + 1`: a result above `upTo` says only "more than upTo". A
 * broad search ("salon" among 100,000 users) stops reading after that many rows instead of reading every match.
 */
export async function countUsers(executor: Executor, filter: UserListFilter, upTo: number): Promise<number> {
  const matching = executor
    .select({ one: sql`1` })
    .from(users)
    .where(whereOf(filter))
    .limit(upTo + 1)
    .as('matching');
  const [row] = await executor.select({ total: count() }).from(matching);
  return row?.total ?? 0;
}
