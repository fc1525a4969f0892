import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
/** The owner (business) a row belongs to; the row goes when the account does. */
const ownerId = () =>
  uuid('user_id')
    .notNull()
    .references((): AnyPgColumn => users.id, { onDelete: 'cascade' });

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
    /** The business's public join link, /join/{slug} (issue 15); made on first use. */
    joinSlug: text('join_slug').unique(),
    /** The billing provider's customer (Stripe `cus_…`, or the local provider's); created on first use. */
    billingCustomerId: text('billing_customer_id'),
    createdAt: createdAt(),
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
    uniqueIndex('users_provider_key')
      .on(table.provider, table.providerId)
      .where(sql`${table.provider} is not null`),
    index('users_created_at_idx').on(table.createdAt),
    uniqueIndex('users_billing_customer_id_key').on(table.billingCustomerId),
  ],
);

/** Bearer sessions: only the SHA-256 of the token is stored, so a database leak reveals no usable token. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('sessions_token_hash_key').on(table.tokenHash),
    index('sessions_user_id_idx').on(table.userId),
  ],
);

/**
 * One live email-verification code per user; a new code replaces the old one. The code is bound to the
 * address it was sent to (issue 24): only that address can be verified or confirmed with it.
 */
export const emailVerifications = pgTable('email_verifications', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  /** The address the code was emailed to (lower case). */
  email: text('email').notNull(),
  failedAttempts: integer('failed_attempts').notNull().default(0),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

export const passwordResets = pgTable(
  'password_resets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('password_resets_token_hash_key').on(table.tokenHash)],
);

/**
 * Transactional outbox (DESIGN.md §2): every email or text is written here in the same transaction as
 * the change that caused it, and the worker delivers it with retries.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: ['email', 'sms', 'push'] }).notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'dead'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** Queue order: rows due at the same instant leave in the order they were queued (FIFO). */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  },
  (table) => [index('outbox_due_idx').on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`)],
);

/** The local email provider's mailbox (shown at /dev/mailbox); the embedded default, not a test double. */
export const localEmails = pgTable('local_emails', {
  id: uuid('id').primaryKey().defaultRandom(),
  outboxId: uuid('outbox_id'),
  to: text('to').notNull(),
  from: text('from').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  createdAt: createdAt(),
  /** Delivery order: the newest email is the highest, even for two stored within one clock tick. */
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
});

/** Counters for rate-limiter-flexible's Drizzle store (used when REDIS_URL is unset). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull().default(0),
  expire: timestamp('expire', { withTimezone: true }),
});

/**
 * Stripe webhook events already applied (issue 4): the event id is the primary key, so an event Stripe
 * delivers twice is applied once.
 */
export const webhookEvents = pgTable('webhook_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

// ---- local billing: the embedded provider's own records (the default when no Stripe key is set) ----
// Times are the billing clock's (the injected clock plus `local_billing_clock.offset_ms`).

/** The local provider's customers; the row is also the lock that serialises one customer's charges. */
export const localBillingCustomers = pgTable('local_billing_customers', {
  id: text('id').primaryKey(),
  email: text('email').notNull(),
  name: text('name').notNull(),
  address: jsonb('address'),
  defaultPaymentMethodId: text('default_payment_method_id'),
  /** Invoice numbers are per customer: `${invoicePrefix}-0001`, `-0002`, … */
  invoicePrefix: text('invoice_prefix').notNull(),
  nextInvoiceNumber: integer('next_invoice_number').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/** Test cards confirmed through a setup intent. Only brand, last four digits and expiry are kept. */
export const localBillingPaymentMethods = pgTable(
  'local_billing_payment_methods',
  {
    id: text('id').primaryKey(),
    customerId: text('customer_id')
      .notNull()
      .references(() => localBillingCustomers.id, { onDelete: 'cascade' }),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    /** Set by attach; a detached card keeps its row (invoices may name it) but is no longer listed. */
    attachedAt: timestamp('attached_at', { withTimezone: true }),
    detachedAt: timestamp('detached_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** Insertion order: "newest card first" even for cards added within the same millisecond. */
    position: integer('position').generatedAlwaysAsIdentity(),
  },
  (table) => [index('local_billing_payment_methods_customer_idx').on(table.customerId)],
);

export const localBillingSetupIntents = pgTable(
  'local_billing_setup_intents',
  {
    id: text('id').primaryKey(),
    customerId: text('customer_id')
      .notNull()
      .references(() => localBillingCustomers.id, { onDelete: 'cascade' }),
    clientSecret: text('client_secret').notNull(),
    status: text('status', { enum: ['requires_payment_method', 'succeeded'] }).notNull(),
    paymentMethodId: text('payment_method_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [uniqueIndex('local_billing_setup_intents_secret_key').on(table.clientSecret)],
);

export const localBillingSubscriptions = pgTable(
  'local_billing_subscriptions',
  {
    id: text('id').primaryKey(),
    customerId: text('customer_id')
      .notNull()
      .references(() => localBillingCustomers.id, { onDelete: 'cascade' }),
    plan: text('plan', { enum: ['starter', 'growth'] }).notNull(),
    billingPeriod: text('billing_period', { enum: ['monthly', 'yearly'] }).notNull(),
    status: text('status', { enum: ['active', 'past_due', 'canceled'] }).notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    /** Periods are counted from here in calendar months or years (Jan 31 → Feb 28 → Mar 31, as Stripe does). */
    billingCycleAnchor: timestamp('billing_cycle_anchor', { withTimezone: true }).notNull(),
    /** A change to a cheaper price, applied at the end of the current period. */
    pendingPlan: text('pending_plan', { enum: ['starter', 'growth'] }),
    pendingBillingPeriod: text('pending_billing_period', { enum: ['monthly', 'yearly'] }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (table) => [
    // At most one live subscription per customer, whatever races.
    uniqueIndex('local_billing_subscriptions_live_key')
      .on(table.customerId)
      .where(sql`${table.status} <> 'canceled'`),
    index('local_billing_subscriptions_due_idx')
      .on(table.currentPeriodEnd)
      .where(sql`${table.status} <> 'canceled'`),
  ],
);

export const localBillingInvoices = pgTable(
  'local_billing_invoices',
  {
    /** Long and random: it is also the key of the public hosted-invoice and PDF links. */
    id: text('id').primaryKey(),
    customerId: text('customer_id')
      .notNull()
      .references(() => localBillingCustomers.id, { onDelete: 'cascade' }),
    subscriptionId: text('subscription_id'),
    number: text('number').notNull(),
    status: text('status', { enum: ['paid', 'open', 'void'] }).notNull(),
    amountDue: integer('amount_due').notNull(),
    amountPaid: integer('amount_paid').notNull(),
    currency: text('currency').notNull(),
    description: text('description').notNull(),
    paymentMethodId: text('payment_method_id'),
    periodStart: timestamp('period_start', { withTimezone: true }),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    /** The same key never creates a second invoice (or charge): double submits, worker retries. */
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('local_billing_invoices_idempotency_key').on(table.idempotencyKey),
    uniqueIndex('local_billing_invoices_number_key').on(table.customerId, table.number),
    index('local_billing_invoices_customer_idx').on(table.customerId, table.createdAt),
  ],
);

/** The local "hosted" checkout and billing-portal pages; ids are long random strings, like Stripe's. */
export const localBillingSessions = pgTable('local_billing_sessions', {
  id: text('id').primaryKey(),
  kind: text('kind', { enum: ['checkout', 'portal'] }).notNull(),
  customerId: text('customer_id')
    .notNull()
    .references(() => localBillingCustomers.id, { onDelete: 'cascade' }),
  plan: text('plan', { enum: ['starter', 'growth'] }),
  billingPeriod: text('billing_period', { enum: ['monthly', 'yearly'] }),
  successUrl: text('success_url'),
  cancelUrl: text('cancel_url'),
  returnUrl: text('return_url'),
  status: text('status', { enum: ['open', 'complete'] })
    .notNull()
    .default('open'),
  subscriptionId: text('subscription_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** One row (id 1): how far the local billing clock runs ahead of the real one (POST /dev/billing/advance). */
export const localBillingClock = pgTable('local_billing_clock', {
  id: integer('id').primaryKey(),
  offsetMs: bigint('offset_ms', { mode: 'number' }).notNull().default(0),
});

// ---- waitlist and cancellation alerts (issue 5, DESIGN.md §5) ----

/** One day-of-week set and time window a customer can come: days 0 = Sunday … 6, times 'HH:MM'. */
export type TimePreference = { days: number[]; from: string; to: string };

export const customers = pgTable(
  'customers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    name: text('name').notNull(),
    /** E.164. */
    phone: text('phone').notNull(),
    notes: text('notes').notNull().default(''),
    status: text('status', { enum: ['waiting', 'offered', 'booked', 'removed'] })
      .notNull()
      .default('waiting'),
    position: integer('position').notNull(),
    consentMethod: text('consent_method', {
      enum: ['verbal', 'written', 'web_form', 'text_keyword', 'imported'],
    }).notNull(),
    consentedAt: timestamp('consented_at', { withTimezone: true }).notNull().defaultNow(),
    optedOut: boolean('opted_out').notNull().default(false),
    optedOutAt: timestamp('opted_out_at', { withTimezone: true }),
    preferences: jsonb('preferences').$type<TimePreference[]>().notNull().default([]),
    firstTextSent: boolean('first_text_sent').notNull().default(false),
    /** The last automatic "the owner will reply" answer to a free-text reply (issue 15): one per 24 hours. */
    autoAnsweredAt: timestamp('auto_answered_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('customers_user_phone_key')
      .on(table.userId, table.phone)
      .where(sql`${table.status} <> 'removed'`),
    index('customers_user_position_idx').on(table.userId, table.position),
    /** Opt-outs per range on the earnings dashboard. */
    index('customers_user_opted_out_at_idx').on(table.userId, table.optedOutAt).where(sql`${table.optedOut}`),
  ],
);

export const openings = pgTable(
  'openings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    service: text('service').notNull(),
    priceCents: integer('price_cents'),
    status: text('status', { enum: ['open', 'filled', 'expired', 'closed'] })
      .notNull()
      .default('open'),
    mode: text('mode', { enum: ['all', 'waves'] }).notNull(),
    waveSize: integer('wave_size'),
    claimWindowMinutes: integer('claim_window_minutes'),
    nextWaveAt: timestamp('next_wave_at', { withTimezone: true }),
    /** When the owner's phone hears "Nobody has claimed your slot yet" if still open (issue 14); null once sent. */
    unclaimedNoticeAt: timestamp('unclaimed_notice_at', { withTimezone: true }),
    winnerCustomerId: uuid('winner_customer_id').references(() => customers.id, { onDelete: 'set null' }),
    filledAt: timestamp('filled_at', { withTimezone: true }),
    createdAt: createdAt(),
    /** YYYY-MM-DD in the business's time zone when the alert went out: alerts per day are counted on it. */
    localDate: text('local_date').notNull(),
  },
  (table) => [
    index('openings_user_local_date_idx').on(table.userId, table.localDate),
    index('openings_open_idx').on(table.startsAt).where(sql`${table.status} = 'open'`),
    /** The earnings dashboard: a business's openings by when their alert went out. */
    index('openings_user_created_at_idx').on(table.userId, table.createdAt),
  ],
);

export const offers = pgTable(
  'offers',
  {
    openingId: uuid('opening_id')
      .notNull()
      .references(() => openings.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    wave: integer('wave').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    status: text('status', { enum: ['pending', 'sent', 'won', 'lost', 'skipped'] })
      .notNull()
      .default('pending'),
    /** When this customer, texted and not the winner, was told the slot is taken (issue 15); once. */
    toldAt: timestamp('told_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.openingId, table.customerId] }),
    index('offers_customer_idx').on(table.customerId),
  ],
);

/** Every text in or out, with its delivery status: the customer's conversation. */
export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    openingId: uuid('opening_id').references(() => openings.id, { onDelete: 'set null' }),
    direction: text('direction', { enum: ['out', 'in'] }).notNull(),
    fromNumber: text('from_number').notNull(),
    toNumber: text('to_number').notNull(),
    body: text('body').notNull(),
    segments: integer('segments').notNull(),
    encoding: text('encoding').notNull(),
    providerMessageId: text('provider_message_id'),
    status: text('status', {
      enum: ['queued', 'sent', 'delivered', 'failed', 'received', 'undelivered'],
    }).notNull(),
    error: text('error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /**
     * Set (committed) just before the provider is called and left while the outcome is unknown: a retry that
     * finds it set asks the provider whether the text already went out before sending it again (issue 17).
     */
    sendStartedAt: timestamp('send_started_at', { withTimezone: true }),
    /** When the owner read this reply in the inbox (issue 15); null while unread. Inbound texts only. */
    readAt: timestamp('read_at', { withTimezone: true }),
    /** Insertion order: a conversation reads right even for texts stored within the same millisecond. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  },
  (table) => [
    uniqueIndex('messages_provider_message_id_key')
      .on(table.providerMessageId)
      .where(sql`${table.providerMessageId} is not null`),
    index('messages_customer_idx').on(table.customerId, table.createdAt),
    index('messages_opening_idx').on(table.openingId),
    index('messages_user_idx').on(table.userId, table.createdAt),
    /** The inbox badge and each conversation's unread count: a business's unread replies. */
    index('messages_unread_idx')
      .on(table.userId, table.customerId)
      .where(sql`${table.direction} = 'in' and ${table.readAt} is null`),
  ],
);

/** Plivo webhooks already applied (message id or status event key): a replayed webhook is applied once. */
export const inboundEvents = pgTable('inbound_events', {
  id: text('id').primaryKey(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Per-user editable text templates (keys: confirmation, reminder, cancellation_alert, claimed, already_filled). */
export const messageTemplates = pgTable(
  'message_templates',
  {
    userId: ownerId(),
    key: text('key').notNull(),
    body: text('body').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.key] })],
);

/** Web push subscriptions (issue 14): one row per device of an owner; the endpoint is the push service's. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    platform: text('platform'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('push_subscriptions_endpoint_idx').on(table.endpoint),
    index('push_subscriptions_user_idx').on(table.userId),
  ],
);

/** The VAPID key pair generated on first start when VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY are unset (one row). */
export const vapidKeys = pgTable('vapid_keys', {
  id: integer('id').primaryKey(),
  publicKey: text('public_key').notNull(),
  privateKey: text('private_key').notNull(),
  createdAt: createdAt(),
});
/**
 * Scheduled work done, one row per job and due item (issue 17): the row is written in the same transaction
 * as the work, so with any number of instances each due item runs once, and a rolled-back run frees it.
 * Carries the weekly email later (job 'weekly-email', due key '<userId>:<ISO week>').
 */
export const scheduledRuns = pgTable(
  'scheduled_runs',
  {
    job: text('job').notNull(),
    dueKey: text('due_key').notNull(),
    ranAt: timestamp('ran_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.job, table.dueKey] })],
);

/**
 * A customer asking to join a waitlist (issue 15): from the public page or by texting JOIN. Pending until
 * they reply YES to the confirmation text (double opt-in); the consent wording, time, address and the YES
 * are kept as the proof a carrier campaign asks for.
 */
export const joinRequests = pgTable(
  'join_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    name: text('name').notNull(),
    /** E.164. */
    phone: text('phone').notNull(),
    method: text('method', { enum: ['web_form', 'text_keyword'] }).notNull(),
    /** The consent wording the customer saw (the page) or sent (the text). */
    consentText: text('consent_text').notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    status: text('status', { enum: ['pending', 'confirmed', 'cancelled', 'full'] })
      .notNull()
      .default('pending'),
    createdAt: createdAt(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    /** The customer's YES (messages.id). */
    confirmationMessageId: uuid('confirmation_message_id'),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
  },
  (table) => [
    index('join_requests_pending_idx').on(table.userId, table.phone).where(sql`${table.status} = 'pending'`),
  ],
);

/**
 * Numbers that asked a business to stop texting them (issue 24): one row per business and phone, written on
 * STOP from any path (a customer, a join request, a stranger) and removed only by the phone's own START. Every
 * text to a phone is checked against it, whatever queued it, so an opt-out outlives the customer row (a
 * customer removed and added again, a number submitted again on the join page).
 */
export const smsOptOuts = pgTable(
  'sms_opt_outs',
  {
    userId: ownerId(),
    /** E.164. */
    phone: text('phone').notNull(),
    optedOutAt: timestamp('opted_out_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.phone] })],
);

/**
 * Single-use values seen within their validity window (issue 24): a webhook signature's nonce, a solved
 * proof-of-work challenge. The key refuses a second use; rows are swept once expired.
 */
export const usedNonces = pgTable(
  'used_nonces',
  {
    scope: text('scope').notNull(),
    nonce: text('nonce').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.scope, table.nonce] }),
    index('used_nonces_expires_at_idx').on(table.expiresAt),
  ],
);
