CREATE TABLE "local_billing_clock" (
	"id" integer PRIMARY KEY NOT NULL,
	"offset_ms" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "local_billing_customers" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"address" jsonb,
	"default_payment_method_id" text,
	"invoice_prefix" text NOT NULL,
	"next_invoice_number" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "local_billing_invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"subscription_id" text,
	"number" text NOT NULL,
	"status" text NOT NULL,
	"amount_due" integer NOT NULL,
	"amount_paid" integer NOT NULL,
	"currency" text NOT NULL,
	"description" text NOT NULL,
	"payment_method_id" text,
	"period_start" timestamp with time zone,
	"period_end" timestamp with time zone,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "local_billing_payment_methods" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"attached_at" timestamp with time zone,
	"detached_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"position" integer GENERATED ALWAYS AS IDENTITY (sequence name "local_billing_payment_methods_position_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1)
);
--> statement-breakpoint
CREATE TABLE "local_billing_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"customer_id" text NOT NULL,
	"plan" text,
	"billing_period" text,
	"success_url" text,
	"cancel_url" text,
	"return_url" text,
	"status" text DEFAULT 'open' NOT NULL,
	"subscription_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "local_billing_setup_intents" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"client_secret" text NOT NULL,
	"status" text NOT NULL,
	"payment_method_id" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "local_billing_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"plan" text NOT NULL,
	"billing_period" text NOT NULL,
	"status" text NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"current_period_start" timestamp with time zone NOT NULL,
	"current_period_end" timestamp with time zone NOT NULL,
	"billing_cycle_anchor" timestamp with time zone NOT NULL,
	"pending_plan" text,
	"pending_billing_period" text,
	"created_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "billing_customer_id" text;--> statement-breakpoint
ALTER TABLE "local_billing_invoices" ADD CONSTRAINT "local_billing_invoices_customer_id_local_billing_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."local_billing_customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "local_billing_payment_methods" ADD CONSTRAINT "local_billing_payment_methods_customer_id_local_billing_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."local_billing_customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "local_billing_sessions" ADD CONSTRAINT "local_billing_sessions_customer_id_local_billing_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."local_billing_customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "local_billing_setup_intents" ADD CONSTRAINT "local_billing_setup_intents_customer_id_local_billing_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."local_billing_customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "local_billing_subscriptions" ADD CONSTRAINT "local_billing_subscriptions_customer_id_local_billing_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."local_billing_customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "local_billing_invoices_idempotency_key" ON "local_billing_invoices" USING btree ("idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "local_billing_invoices_number_key" ON "local_billing_invoices" USING btree ("customer_id","number");--> statement-breakpoint
CREATE INDEX "local_billing_invoices_customer_idx" ON "local_billing_invoices" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "local_billing_payment_methods_customer_idx" ON "local_billing_payment_methods" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "local_billing_setup_intents_secret_key" ON "local_billing_setup_intents" USING btree ("client_secret");--> statement-breakpoint
CREATE UNIQUE INDEX "local_billing_subscriptions_live_key" ON "local_billing_subscriptions" USING btree ("customer_id") WHERE "local_billing_subscriptions"."status" <> 'canceled';--> statement-breakpoint
CREATE INDEX "local_billing_subscriptions_due_idx" ON "local_billing_subscriptions" USING btree ("current_period_end") WHERE "local_billing_subscriptions"."status" <> 'canceled';--> statement-breakpoint
CREATE UNIQUE INDEX "users_billing_customer_id_key" ON "users" USING btree ("billing_customer_id");