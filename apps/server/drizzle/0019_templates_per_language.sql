ALTER TABLE "message_templates" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "message_templates" DROP CONSTRAINT "message_templates_user_id_key_pk";--> statement-breakpoint
ALTER TABLE "message_templates" ADD CONSTRAINT "message_templates_user_id_key_language_pk" PRIMARY KEY("user_id","key","language");--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "plain_spanish_letters" boolean DEFAULT false NOT NULL;
