/** Every table, one file per domain; drizzle-kit reads this folder. Import the tables through `db/schema.ts`. */
export * from './auth.ts';
export * from './billing.ts';
export * from './calendar.ts';
export * from './local-billing.ts';
export * from './openings.ts';
export * from './outbox.ts';
export * from './push.ts';
export * from './services.ts';
export * from './system.ts';
export * from './texting.ts';
export * from './users.ts';
export * from './waitlist.ts';
