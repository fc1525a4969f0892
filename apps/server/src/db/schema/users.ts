import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/** The accounts: each owner (business) and its settings, plan cache and dedicated number. */

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    /** Always stored lower-cased and trimmed; unique. */
    email: text('email').notNull(),
    /** argon2id; null for accounts that only sign in through an identity provider. */
    passwordHash: text('password_hash'),
    /**
     * A new address asked for on a verified account (issue 12): it replaces `email` only once the code sent
     * to it (in email_verifications) is entered, so nobody takes an address they do not own.
     */
    pendingEmail: text('pending_email'),
    verified: boolean('verified').notNull().default(false),
    admin: boolean('admin').notNull().default(false),
    isExternalAuth: boolean('is_external_auth').notNull().default(false),
    provider: text('provider'),
    providerId: text('provider_id'),
    businessName: text('business_name').notNull().default(''),
    businessPhone: text('business_phone').notNull().default(''),
    businessAddress: text('business_address').notNull().default(''),
    city: text('city').notNull().default(''),
    state: text('state').notNull().default(''),
    zip: text('zip').notNull().default(''),
    businessVerificationStatus: text('business_verification_status'),
    subscriptionPlan: text('subscription_plan', { enum: ['free_trial', 'starter', 'growth'] })
      .notNull()
      .default('free_trial'),
    subscriptionPeriod: text('subscription_period', { enum: ['monthly', 'yearly'] }),
    subscriptionStatus: text('subscription_status').notNull().default('trialing'),
    trialEndDate: timestamp('trial_end_date', { withTimezone: true }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    plivoNumber: text('plivo_number'),
    plivoNumberStatus: text('plivo_number_status', { enum: ['pending', 'verified', 'failed'] }),
    /** Why the dedicated number failed verification (issue 5). */
    plivoNumberError: text('plivo_number_error'),
    /** The business's IANA time zone: openings are entered and alerts counted per day in it. */
    timeZone: text('time_zone').notNull().default('America/New_York'),
    phoneNumber: text('phone_number'),
    pushNotificationsEnabled: boolean('push_notifications_enabled').notNull().default(false),
    devicePlatform: text('device_platform'),
    /** The Monday summary email of last week's figures (issue 14); the owner turns it off on the Information tab. */
    weeklySummaryEnabled: boolean('weekly_summary_enabled').notNull().default(true),
    /** Spanish texts written without the accents GSM-7 lacks (á → a), to keep them 160 a segment (issue 28). */
    plainSpanishLetters: boolean('plain_spanish_letters').notNull().default(false),
    /** The business's public join link, /join/{slug} (issue 15); made on first use. */
    joinSlug: text('join_slug').unique(),
    /** The billing provider's customer (Stripe `cus_…`, or the local provider's); created on first use. */
    billingCustomerId: text('billing_customer_id'),
    /** Spelled out here, not `createdAt()` from columns.ts: that module imports this one for `ownerId`. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** What the admin search matches as text: name, email and business, lower-cased (issue 6). */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(sql`lower(first_name || ' ' || last_name || ' ' || email || ' ' || business_name)`),
    /** Every phone of the user as digits only, so "(555) 123" and "555-123" find the same owner. */
    phoneDigits: text('phone_digits')
      .notNull()
      .generatedAlwaysAs(
        sql`regexp_replace(business_phone || ' ' || coalesce(phone_number, '') || ' ' || coalesce(plivo_number, ''), '[^0-9 ]', '', 'g')`,
      ),
  },
  (table) => [
    uniqueIndex('users_email_key').on(table.email),
    // The admin list (issue 6): trigram indexes serve "contains" searches, the others its sort keys.
    index('users_search_text_trgm_idx').using('gin', sql`${table.searchText} gin_trgm_ops`),
    index('users_phone_digits_trgm_idx').using('gin', sql`${table.phoneDigits} gin_trgm_ops`),
    index('users_first_name_sort_idx').on(sql`lower(${table.firstName})`, table.id),
    index('users_business_name_sort_idx').on(sql`lower(${table.businessName})`, table.id),
    index('users_plan_created_at_idx').on(table.subscriptionPlan, table.createdAt),
    // The plan column's sort (by tier: admin-users.repo.ts), read in order like the others (issue 30).
    index('users_plan_sort_idx').on(
      sql`(case ${table.subscriptionPlan} when 'free_trial' then 0 when 'starter' then 1 else 2 end)`,
      table.id,
    ),
    uniqueIndex('users_provider_key')
      .on(table.provider, table.providerId)
      .where(sql`${table.provider} is not null`),
    index('users_created_at_idx').on(table.createdAt),
    // The billing worker's trial expiry: the trials due, not every account that ever had one (issue 30).
    index('users_trial_due_idx').on(table.trialEndDate).where(sql`${table.subscriptionStatus} = 'trialing'`),
    // Every inbound text finds its business by the number it was sent to (issue 30: a scan of all users before).
    index('users_plivo_number_idx').on(table.plivoNumber).where(sql`${table.plivoNumber} is not null`),
    uniqueIndex('users_billing_customer_id_key').on(table.billingCustomerId),
    // The Monday summary's pass (issue 30): the zones in use by a loose index scan, then a due zone's owners in
    // id order, instead of every eligible owner every five minutes. The predicate is auth.repo's
    // weeklySummaryEligible, written the same way so the planner can use the index.
    index('users_weekly_summary_idx')
      .on(table.timeZone, table.id)
      .where(sql`${table.verified} and ${table.weeklySummaryEnabled} and ${table.businessName} <> ''`),
  ],
);
