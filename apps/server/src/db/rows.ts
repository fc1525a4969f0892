import type { customers, messages, offers, openings, users } from './schema.ts';

/**
 * The row types features pass between them. Types only: the tables themselves are read and written by their
 * one owning repo (docs/decisions/0008-one-home-per-table.md), so no other feature file imports the schema.
 */
export type UserRow = typeof users.$inferSelect;
export type CustomerRow = typeof customers.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type OpeningRow = typeof openings.$inferSelect;
export type OfferRow = typeof offers.$inferSelect;
/** The subscription fields of a user: a cache of the provider's subscription (SPEC §3 "User"). */
export type SubscriptionFields = Pick<
  UserRow,
  'subscriptionPlan' | 'subscriptionPeriod' | 'subscriptionStatus' | 'currentPeriodEnd'
>;
/** A business's dedicated texting number and its state (set by features/messaging through features/auth's repo). */
export type NumberFields = Pick<UserRow, 'plivoNumber' | 'plivoNumberStatus' | 'plivoNumberError'>;
/** A change of the number's state: the number itself only when a new one is rented. */
export type NumberChange = Omit<NumberFields, 'plivoNumber'> & Partial<Pick<NumberFields, 'plivoNumber'>>;
