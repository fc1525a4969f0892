import type { AdminSortKey } from '@waitlist/contract';
import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import { users } from '../../db/schema.ts';
import type { UserListFilter, UserListQuery } from '../../lib/user-search.ts';

/** The admin user list over `users` (features/admin reads it through wiring.ts's adminUsers). */

/** Sort expressions; each has an index (schema.ts). Plans sort by tier, not alphabetically. */
const sortExpressions: Record<AdminSortKey, SQL> = {
  firstName: sql`lower(${users.firstName})`,
  email: sql`${users.email}`,
  businessName: sql`lower(${users.businessName})`,
  subscriptionPlan: sql`case ${users.subscriptionPlan} when 'free_trial' then 0 when 'starter' then 1 else 2 end`,
  createdAt: sql`${users.createdAt}`,
};

/** `%` and `_` typed by the admin are literal characters, not wildcards. */
function containsPattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

function whereOf(filter: UserListFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.verified !== undefined) conditions.push(eq(users.verified, filter.verified));
  if (filter.plan) conditions.push(eq(users.subscriptionPlan, filter.plan));
  for (const term of filter.search) {
    if ('text' in term) {
      // Served by the trigram index on search_text (already lower-cased).
      conditions.push(sql`${users.searchText} like ${containsPattern(term.text.toLowerCase())}`);
    } else {
      const alternatives = term.digits.map(
        (digits) => sql`${users.phoneDigits} like ${containsPattern(digits)}`,
      );
      conditions.push(sql`(${sql.join(alternatives, sql` or `)})`);
    }
  }
  return conditions.length ? and(...conditions) : undefined;
}

export async function listUsers(executor: Executor, query: UserListQuery): Promise<UserRow[]> {
  const direction = query.order === 'asc' ? asc : desc;
  return (
    executor
      .select()
      .from(users)
      .where(whereOf(query))
      // The id breaks ties, so paging never shows a user twice or skips one.
      .orderBy(direction(sortExpressions[query.sort]), direction(users.id))
      .limit(query.limit)
      .offset(query.offset)
  );
}

export async function countUsers(executor: Executor, filter: UserListFilter): Promise<number> {
  const [row] = await executor.select({ total: count() }).from(users).where(whereOf(filter));
  return row?.total ?? 0;
}
