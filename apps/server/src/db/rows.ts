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
