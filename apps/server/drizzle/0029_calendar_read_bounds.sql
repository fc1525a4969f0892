ALTER TABLE "calendar_connections" ADD COLUMN "failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "calendar_connections" ADD COLUMN "skipped" jsonb DEFAULT '[]'::jsonb NOT NULL;