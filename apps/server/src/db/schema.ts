/**
 * The Drizzle tables, imported by repos only (docs/decisions/0008-one-home-per-table.md; the lint rules name
 * this path). Each domain's tables are defined in `schema/<domain>.ts`.
 */
export * from './schema/index.ts';
