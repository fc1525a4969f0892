ALTER TABLE "customers" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "join_requests" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;