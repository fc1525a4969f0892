import type { AdminSortKey, SortOrder, SubscriptionPlan } from '@waitlist/contract';

/**
 * The admin user list's query (SPEC §2 "Admin page"): features/admin builds it from the request, and
 * features/auth's repo (the one home of `users`) runs it.
 */
/** One search word: text matched against name/email/business, or digits matched against the phones. */
export type SearchTerm = { text: string } | { digits: string[] };

export interface UserListFilter {
  verified?: boolean;
  plan?: SubscriptionPlan;
  /** Every term must match (AND). */
  search: SearchTerm[];
}

export interface UserListQuery extends UserListFilter {
  sort: AdminSortKey;
  order: SortOrder;
  limit: number;
  offset: number;
}
