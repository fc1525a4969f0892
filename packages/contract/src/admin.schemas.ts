import { z } from 'zod';
import { subscriptionPlans, userSchema } from './user.schemas.ts';

/** The admin user list (SPEC §2 "Admin page", §7 `GET /admin/users`; issue 6). */

export const adminSortKeys = ['firstName', 'email', 'businessName', 'subscriptionPlan', 'createdAt'] as const;
export type AdminSortKey = (typeof adminSortKeys)[number];
export const sortOrders = ['asc', 'desc'] as const;
export type SortOrder = (typeof sortOrders)[number];

export const ADMIN_DEFAULT_SORT: AdminSortKey = 'createdAt';
export const ADMIN_DEFAULT_PAGE_SIZE = 25;
export const ADMIN_MAX_PAGE_SIZE = 100;
export const ADMIN_SEARCH_MAX_LENGTH = 100;
/**
 * The list counts its matches in steps of this many, up to the first step past the page asked for: a broad
 * search among 100,000 users is not read whole to print its total (issue 30). Past the step, `total` is the
 * step and `totalExact` is false ("1,000+ users").
 */
export const ADMIN_COUNT_STEP = 1000;

/** How far the count reads for a page: the first whole step past its last row, so "is there a next page" is known. */
export const adminCountBound = (page: number, pageSize: number) =>
  ADMIN_COUNT_STEP * Math.ceil((page * pageSize + 1) / ADMIN_COUNT_STEP);

/** The order a column sorts in when it is first chosen: newest first for dates, A→Z for text. */
export function defaultOrderFor(sort: AdminSortKey): SortOrder {
  return sort === 'createdAt' ? 'desc' : 'asc';
}

export const adminMessages = {
  adminOnly: 'Only admins can see the user list.',
  /** ours (issue 12): the local tools on a public HOST with LOCAL_TOOLS=admin */
  localToolsAdminOnly: 'Only admins can use the local tools on this server.',
  badSort: `Unknown sort key. Use one of: ${adminSortKeys.join(', ')}.`,
  badOrder: 'Sort order must be asc or desc.',
  badVerified: 'verified must be true or false.',
  badPlan: `plan must be one of: ${subscriptionPlans.join(', ')}.`,
  badPage: 'page must be a whole number of 1 or more.',
  badPageSize: `pageSize must be a whole number from 1 to ${ADMIN_MAX_PAGE_SIZE}.`,
  searchTooLong: `Search must be at most ${ADMIN_SEARCH_MAX_LENGTH} characters.`,
} as const;

const wholeNumber = (message: string, max?: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, message)
    .transform(Number)
    .pipe(
      max
        ? z.number().int(message).min(1, message).max(max, message)
        : z.number().int(message).min(1, message),
    );

/**
 * Query parameters, all optional. Values arrive as strings; a bad value is a 400 naming what is allowed.
 * `order` defaults to {@link defaultOrderFor} the sort key.
 */
export const adminUsersQuery = z.object({
  search: z.string().trim().max(ADMIN_SEARCH_MAX_LENGTH, adminMessages.searchTooLong).optional(),
  verified: z.enum(['true', 'false'], { error: adminMessages.badVerified }).optional(),
  plan: z.enum(subscriptionPlans, { error: adminMessages.badPlan }).optional(),
  sort: z.enum(adminSortKeys, { error: adminMessages.badSort }).optional(),
  order: z.enum(sortOrders, { error: adminMessages.badOrder }).optional(),
  page: wholeNumber(adminMessages.badPage).optional(),
  pageSize: wholeNumber(adminMessages.badPageSize, ADMIN_MAX_PAGE_SIZE).optional(),
});
export type AdminUsersQueryInput = z.input<typeof adminUsersQuery>;

export const adminUsersResponse = z.object({
  success: z.literal(true),
  data: z.array(userSchema),
  /** The users matching, counted up to {@link adminCountBound}; a lower bound when `totalExact` is false. */
  total: z.number().int(),
  totalExact: z.boolean(),
  page: z.number().int(),
  pageSize: z.number().int(),
  sort: z.enum(adminSortKeys),
  order: z.enum(sortOrders),
});
export type AdminUsersResponse = z.infer<typeof adminUsersResponse>;
