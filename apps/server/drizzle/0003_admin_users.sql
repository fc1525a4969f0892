-- The admin search's trigram indexes (issue 6). A trusted extension: the database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(first_name || ' ' || last_name || ' ' || email || ' ' || business_name)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone_digits" text GENERATED ALWAYS AS (regexp_replace(business_phone || ' ' || coalesce(phone_number, '') || ' ' || coalesce(plivo_number, ''), '[^0-9 ]', '', 'g')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "users_search_text_trgm_idx" ON "users" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_phone_digits_trgm_idx" ON "users" USING gin ("phone_digits" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_first_name_sort_idx" ON "users" USING btree (lower("first_name"),"id");--> statement-breakpoint
CREATE INDEX "users_business_name_sort_idx" ON "users" USING btree (lower("business_name"),"id");--> statement-breakpoint
CREATE INDEX "users_plan_created_at_idx" ON "users" USING btree ("subscription_plan","created_at");