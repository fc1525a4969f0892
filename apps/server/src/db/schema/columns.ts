import { type AnyPgColumn, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** Columns many tables share. */

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** The owner (business) a row belongs to; the row goes when the account does. */
export const ownerId = () =>
  uuid('user_id')
    .notNull()
    .references((): AnyPgColumn => users.id, { onDelete: 'cascade' });
