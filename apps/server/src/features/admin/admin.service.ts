import {
  ADMIN_DEFAULT_PAGE_SIZE,
  ADMIN_DEFAULT_SORT,
  type AdminSortKey,
  adminCountBound,
  defaultOrderFor,
  type SortOrder,
  type SubscriptionPlan,
  type User,
} from '@waitlist/contract';
import type { Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import { toUserDto } from '../../lib/user.dto.ts';
import type { SearchTerm, UserListFilter, UserListQuery } from '../../lib/user-search.ts';

/** The owners as the admin list reads them (features/auth's repo owns `users`), handed over in composition.ts. */
export interface AdminUsers {
  listUsers(executor: Executor, query: UserListQuery): Promise<UserRow[]>;
  /** Counts up to `upTo + 1` matches and stops there. */
  countUsers(executor: Executor, filter: UserListFilter, upTo: number): Promise<number>;
}

export interface AdminUserListRequest {
  search?: string;
  verified?: 'true' | 'false';
  plan?: SubscriptionPlan;
  sort?: AdminSortKey;
  order?: SortOrder;
  page?: number;
  pageSize?: number;
}

export interface AdminUserList {
  data: User[];
  total: number;
  /** False when more than `total` users match (the count stopped at its bound). */
  totalExact: boolean;
  page: number;
  pageSize: number;
  sort: AdminSortKey;
  order: SortOrder;
}

/** Characters people type inside phone numbers: "+1 (555) 123-4567", "555.123.4567". */
const PHONE_LIKE = /^[\d\s()+.-]+$/;
/** Fewer digits than this would match nearly every phone, so they are matched as text instead. */
const MIN_PHONE_DIGITS = 3;

/**
 * Turns the admin's search box into terms. A query made only of phone characters is one phone term,
 * whatever its format; a US number typed with its country code also matches the 10 digits we store.
 * Anything else is split into words that must all appear in the name, email, business or phones.
 */
export function parseSearch(search: string | undefined): SearchTerm[] {
  const query = search?.trim() ?? '';
  if (!query) return [];
  const digits = query.replace(/\D/g, '');
  if (PHONE_LIKE.test(query) && digits.length >= MIN_PHONE_DIGITS) {
    const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : undefined;
    return [{ digits: national ? [digits, national] : [digits] }];
  }
  return query.split(/\s+/).map((word) => {
    const wordDigits = word.replace(/\D/g, '');
    return PHONE_LIKE.test(word) && wordDigits.length >= MIN_PHONE_DIGITS
      ? { digits: [wordDigits] }
      : { text: word };
  });
}

export function createAdminService(deps: { db: Executor; users: AdminUsers }) {
  return {
    /** The read-only user list (SPEC §2 "Admin page"): filtering, sorting, search and paging in the database. */
    async listUsers(request: AdminUserListRequest): Promise<AdminUserList> {
      const sort = request.sort ?? ADMIN_DEFAULT_SORT;
      const order = request.order ?? defaultOrderFor(sort);
      const page = request.page ?? 1;
      const pageSize = request.pageSize ?? ADMIN_DEFAULT_PAGE_SIZE;
      const filter = {
        verified: request.verified === undefined ? undefined : request.verified === 'true',
        plan: request.plan,
        search: parseSearch(request.search),
      };
      const bound = adminCountBound(page, pageSize);
      const [rows, counted] = await Promise.all([
        deps.users.listUsers(deps.db, {
          ...filter,
          sort,
          order,
          limit: pageSize,
          offset: (page - 1) * pageSize,
        }),
        deps.users.countUsers(deps.db, filter, bound),
      ]);
      const totalExact = counted <= bound;
      return {
        data: rows.map(toUserDto),
        total: totalExact ? counted : bound,
        totalExact,
        page,
        pageSize,
        sort,
        order,
      };
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
