ALTER TABLE "customers" ADD COLUMN "auto_answered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "told_at" timestamp with time zone;