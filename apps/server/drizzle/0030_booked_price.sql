ALTER TABLE "openings" ADD COLUMN "booked_price_cents" integer;--> statement-breakpoint
-- Openings already filled keep what the dashboard counted for them until now (issue 39).
UPDATE "openings" o SET "booked_price_cents" = coalesce((SELECT s."price_cents" FROM "customers" c
  JOIN "services" s ON s."id" = c."service_id"
  WHERE c."id" = o."winner_customer_id" AND c."service_id" IS DISTINCT FROM o."service_id"
    AND s."price_cents" IS NOT NULL), o."price_cents")
WHERE o."status" = 'filled';
