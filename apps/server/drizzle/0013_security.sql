CREATE TABLE "sms_opt_outs" (
	"user_id" uuid NOT NULL,
	"phone" text NOT NULL,
	"opted_out_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sms_opt_outs_user_id_phone_pk" PRIMARY KEY("user_id","phone")
);
--> statement-breakpoint
CREATE TABLE "used_nonces" (
	"scope" text NOT NULL,
	"nonce" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "used_nonces_scope_nonce_pk" PRIMARY KEY("scope","nonce")
);
--> statement-breakpoint
-- Codes live 10 minutes and were not bound to an address: the ones in flight are dropped (a new one can be sent).
DELETE FROM "email_verifications";--> statement-breakpoint
ALTER TABLE "email_verifications" ADD COLUMN "email" text NOT NULL;--> statement-breakpoint
ALTER TABLE "sms_opt_outs" ADD CONSTRAINT "sms_opt_outs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "used_nonces_expires_at_idx" ON "used_nonces" USING btree ("expires_at");--> statement-breakpoint
-- Every opt-out recorded so far on a customer row becomes the business's opt-out for that phone.
INSERT INTO "sms_opt_outs" ("user_id", "phone", "opted_out_at")
SELECT "user_id", "phone", min(coalesce("opted_out_at", now())) FROM "customers" WHERE "opted_out" GROUP BY "user_id", "phone"
ON CONFLICT DO NOTHING;