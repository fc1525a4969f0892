CREATE TABLE "calendar_bookings" (
	"opening_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"uid" text NOT NULL,
	"href" text,
	"etag" text,
	"wanted" text NOT NULL,
	"done" boolean DEFAULT false NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_bookings_opening_id_connection_id_pk" PRIMARY KEY("opening_id","connection_id")
);
--> statement-breakpoint
CREATE TABLE "calendar_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"url" text,
	"calendar_ref" text,
	"account" text,
	"secret" text,
	"mode" text DEFAULT 'ask' NOT NULL,
	"horizon_days" integer DEFAULT 7 NOT NULL,
	"grace_minutes" integer DEFAULT 5 NOT NULL,
	"exclude" jsonb DEFAULT '["Lunch","Blocked","Break","Busy"]'::jsonb NOT NULL,
	"rules" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sync_token" text,
	"ctag" text,
	"channel_id" text,
	"channel_token" text,
	"channel_resource_id" text,
	"channel_expires_at" timestamp with time zone,
	"status" text DEFAULT 'ok' NOT NULL,
	"last_error" text,
	"last_synced_at" timestamp with time zone,
	"next_sync_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "calendar_events" (
	"connection_id" uuid NOT NULL,
	"instance_key" text NOT NULL,
	"uid" text NOT NULL,
	"recurrence_id" text,
	"href" text,
	"etag" text,
	"title" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"attendees" integer DEFAULT 0 NOT NULL,
	"ours" boolean DEFAULT false NOT NULL,
	CONSTRAINT "calendar_events_connection_id_instance_key_pk" PRIMARY KEY("connection_id","instance_key")
);
--> statement-breakpoint
CREATE TABLE "calendar_proposals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"instance_key" text NOT NULL,
	"title" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"duration_minutes" integer NOT NULL,
	"service_id" uuid,
	"staff_id" uuid,
	"price_cents" integer,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"opens_at" timestamp with time zone,
	"opening_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "local_calendar_events" (
	"user_id" uuid NOT NULL,
	"uid" text NOT NULL,
	"ics" text NOT NULL,
	"etag" text NOT NULL,
	"seq" bigint NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "local_calendar_events_user_id_uid_pk" PRIMARY KEY("user_id","uid")
);
--> statement-breakpoint
ALTER TABLE "calendar_bookings" ADD CONSTRAINT "calendar_bookings_opening_id_openings_id_fk" FOREIGN KEY ("opening_id") REFERENCES "public"."openings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_bookings" ADD CONSTRAINT "calendar_bookings_connection_id_calendar_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."calendar_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_connections" ADD CONSTRAINT "calendar_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_events" ADD CONSTRAINT "calendar_events_connection_id_calendar_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."calendar_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_proposals" ADD CONSTRAINT "calendar_proposals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_proposals" ADD CONSTRAINT "calendar_proposals_connection_id_calendar_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."calendar_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_proposals" ADD CONSTRAINT "calendar_proposals_opening_id_openings_id_fk" FOREIGN KEY ("opening_id") REFERENCES "public"."openings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "local_calendar_events" ADD CONSTRAINT "local_calendar_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calendar_bookings_due_idx" ON "calendar_bookings" USING btree ("next_attempt_at") WHERE done = false;--> statement-breakpoint
CREATE INDEX "calendar_connections_user_idx" ON "calendar_connections" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "calendar_connections_due_idx" ON "calendar_connections" USING btree ("next_sync_at");--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_connections_channel_key" ON "calendar_connections" USING btree ("channel_id");--> statement-breakpoint
CREATE INDEX "calendar_events_time_idx" ON "calendar_events" USING btree ("connection_id","starts_at");--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_proposals_slot_key" ON "calendar_proposals" USING btree ("connection_id","instance_key","starts_at");--> statement-breakpoint
CREATE INDEX "calendar_proposals_user_idx" ON "calendar_proposals" USING btree ("user_id","status");--> statement-breakpoint
CREATE INDEX "calendar_proposals_due_idx" ON "calendar_proposals" USING btree ("opens_at") WHERE status = 'scheduled';--> statement-breakpoint
CREATE INDEX "local_calendar_events_seq_idx" ON "local_calendar_events" USING btree ("user_id","seq");--> statement-breakpoint
CREATE INDEX "openings_user_starts_at_idx" ON "openings" USING btree ("user_id","starts_at");