ALTER TABLE "messages" ADD COLUMN "read_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "messages_unread_idx" ON "messages" USING btree ("user_id","customer_id") WHERE "messages"."direction" = 'in' and "messages"."read_at" is null;--> statement-breakpoint
-- Replies received before the inbox existed were seen where they were shown then: they start read.
UPDATE "messages" SET "read_at" = "created_at" WHERE "direction" = 'in';
