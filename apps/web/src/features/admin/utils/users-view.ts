import {
  ADMIN_DEFAULT_PAGE_SIZE,
  ADMIN_DEFAULT_SORT,
  ADMIN_SEARCH_MAX_LENGTH,
  type AdminSortKey,
  type AdminUsersQueryInput,
  adminSortKeys,
  defaultOrderFor,
  type SortOrder,
  type SubscriptionPlan,
  sortOrders,
  subscriptionPlans,
} from '@waitlist/contract';

export type VerifiedFilter = '' | 'true' | 'false';
export type PlanFilter = SubscriptionPlan | '';

/** The sizes the "Rows per page" select offers; any other size in the address falls back to the default. */
export const PAGE_SIZE_OPTIONS = [10, 25, 50, 100] as const;

/** What the admin is looking at: filters, search, sort and page. It lives in the address. */
export type UsersView = {
  search: string;
  verified: VerifiedFilter;
  plan: PlanFilter;
  sort: AdminSortKey;
  order: SortOrder;
  page: number;
  pageSize: number;
};

export const defaultUsersView: UsersView = {
  search: '',
  verified: '',
  plan: '',
  sort: ADMIN_DEFAULT_SORT,
  order: defaultOrderFor(ADMIN_DEFAULT_SORT),
  page: 1,
  pageSize: ADMIN_DEFAULT_PAGE_SIZE,
};

const oneOf = <T extends string>(allowed: readonly T[], value: string | null): T | undefined =>
  allowed.find((candidate) => candidate === value);

const positiveWhole = (value: string | null): number | undefined =>
  value && /^\d{1,9}$/.test(value) && Number(value) >= 1 ? Number(value) : undefined;

/**
 * Reads the view from the address. A value the list cannot use (a hand-edited or stale link) falls
 * back to its default instead of ending in an error; an overlong search is cut to what the API accepts.
 */
export function readUsersView(params: URLSearchParams): UsersView {
  const sort = oneOf(adminSortKeys, params.get('sort')) ?? defaultUsersView.sort;
  const pageSize = positiveWhole(params.get('pageSize'));
  return {
    search: (params.get('search') ?? '').trim().slice(0, ADMIN_SEARCH_MAX_LENGTH),
    verified: oneOf(['true', 'false'], params.get('verified')) ?? '',
    plan: oneOf(subscriptionPlans, params.get('plan')) ?? '',
    sort,
    order: oneOf(sortOrders, params.get('order')) ?? defaultOrderFor(sort),
    page: positiveWhole(params.get('page')) ?? 1,
    pageSize:
      pageSize && (PAGE_SIZE_OPTIONS as readonly number[]).includes(pageSize)
        ? pageSize
        : defaultUsersView.pageSize,
  };
}

/** The address for a view, without the values that are defaults, so a plain /admin stays plain. */
export function writeUsersView(view: UsersView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.search) params.set('search', view.search);
  if (view.verified) params.set('verified', view.verified);
  if (view.plan) params.set('plan', view.plan);
  if (view.sort !== defaultUsersView.sort) params.set('sort', view.sort);
  if (view.order !== defaultOrderFor(view.sort)) params.set('order', view.order);
  if (view.page !== 1) params.set('page', String(view.page));
  if (view.pageSize !== defaultUsersView.pageSize) params.set('pageSize', String(view.pageSize));
  return params;
}

/**
 * The query GET /admin/users is asked with. Sort, order, page and size are always sent, so the list
 * shown is the one the screen describes even if the server's defaults change.
 */
export function usersRequestQuery(view: UsersView): AdminUsersQueryInput {
  return {
    ...(view.search ? { search: view.search } : {}),
    ...(view.verified ? { verified: view.verified } : {}),
    ...(view.plan ? { plan: view.plan } : {}),
    sort: view.sort,
    order: view.order,
    page: String(view.page),
    pageSize: String(view.pageSize),
  };
}

/** Whether anything narrows the list (sorting and paging do not). */
export const isFiltered = (view: UsersView) => view.search !== '' || view.verified !== '' || view.plan !== '';

/** A header click: a new column starts in its natural order, the current column flips. */
export function nextSort(view: UsersView, sort: AdminSortKey): Pick<UsersView, 'sort' | 'order'> {
  if (view.sort === sort) return { sort, order: view.order === 'asc' ? 'desc' : 'asc' };
  return { sort, order: defaultOrderFor(sort) };
}

export const pageCount = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));

/** The pages known to exist: past a bounded count (`exact` false) at least one more user, so one more page. */
export const knownPages = (total: number, exact: boolean, pageSize: number) =>
  pageCount(exact ? total : total + 1, pageSize);

/** "1 user", "2,500 users", or "1,000+ users" when the count stopped at its bound (more match). */
export function usersCountLabel(total: number, exact: boolean): string {
  if (exact && total === 1) return '1 user';
  return `${total.toLocaleString('en-US')}${exact ? '' : '+'} users`;
}
