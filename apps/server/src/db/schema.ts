import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

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
    phoneNumber: text('phone_number'),
    pushNotificationsEnabled: boolean('push_notifications_enabled').notNull().default(false),
    devicePlatform: text('device_platform'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('users_email_key').on(table.email),
    uniqueIndex('users_provider_key')
      .on(table.provider, table.providerId)
      .where(sql`${table.provider} is not null`),
    index('users_created_at_idx').on(table.createdAt),
  ],
);

/** Bearer sessions: only the SHA-256 of the token is stored, so a database leak reveals no usable token. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('sessions_token_hash_key').on(table.tokenHash),
    index('sessions_user_id_idx').on(table.userId),
  ],
);

/** One live email-verification code per user; a new code replaces the old one. */
export const emailVerifications = pgTable('email_verifications', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  failedAttempts: integer('failed_attempts').notNull().default(0),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

export const passwordResets = pgTable(
  'password_resets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    kind: text('kind', { enum: ['email'] }).notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'dead'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
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
});

/** Counters for rate-limiter-flexible's Drizzle store (used when REDIS_URL is unset). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull().default(0),
  expire: timestamp('expire', { withTimezone: true }),
});
