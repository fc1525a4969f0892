ALTER TABLE "offers" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
-- Claims before this column: a won offer was claimed when its opening was filled.
UPDATE "offers" AS o SET "claimed_at" = op."filled_at"
  FROM "openings" AS op
 WHERE op."id" = o."opening_id" AND o."status" = 'won' AND op."filled_at" IS NOT NULL;
