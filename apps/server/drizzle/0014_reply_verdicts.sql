ALTER TABLE "customers" ADD COLUMN "reply_on_claim" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "reply_on_text" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "reply_text_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "reply_push" boolean;--> statement-breakpoint
-- A change of status or opt-out forgets the reply verdict (decision 0013): the next reply takes the
-- transaction's way, which decides again and writes a new one.
CREATE FUNCTION customers_forget_reply_verdict() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.reply_on_claim := NULL;
  NEW.reply_on_text := NULL;
  NEW.reply_text_until := NULL;
  NEW.reply_push := NULL;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER customers_forget_reply_verdict BEFORE UPDATE ON "customers" FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.opted_out IS DISTINCT FROM NEW.opted_out)
  EXECUTE FUNCTION customers_forget_reply_verdict();
