CREATE TABLE "offer_settings" (
	"user_id" uuid NOT NULL,
	"send_from" text DEFAULT '08:00' NOT NULL,
	"send_until" text DEFAULT '20:00' NOT NULL,
	"daily_offer_cap" integer DEFAULT 3 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offer_settings_user_id_pk" PRIMARY KEY("user_id")
);
--> statement-breakpoint
CREATE TABLE "services" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"duration_minutes" integer NOT NULL,
	"price_cents" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_members" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "rank" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "reason" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "send_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "skip_reason" text;--> statement-breakpoint
ALTER TABLE "openings" ADD COLUMN "service_id" uuid;--> statement-breakpoint
ALTER TABLE "openings" ADD COLUMN "staff_id" uuid;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "service_id" uuid;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "staff_id" uuid;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "vip" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "pinned" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "offer_settings" ADD CONSTRAINT "offer_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_members" ADD CONSTRAINT "staff_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "services_user_name_key" ON "services" USING btree ("user_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "staff_members_user_name_key" ON "staff_members" USING btree ("user_id",lower("name"));--> statement-breakpoint
ALTER TABLE "openings" ADD CONSTRAINT "openings_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "openings" ADD CONSTRAINT "openings_staff_id_staff_members_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_staff_id_staff_members_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offers_held_idx" ON "offers" USING btree ("send_at") WHERE "offers"."status" = 'held';