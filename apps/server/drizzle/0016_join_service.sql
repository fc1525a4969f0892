ALTER TABLE "join_requests" ADD COLUMN "service_id" uuid;--> statement-breakpoint
ALTER TABLE "join_requests" ADD COLUMN "staff_id" uuid;--> statement-breakpoint
ALTER TABLE "join_requests" ADD CONSTRAINT "join_requests_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "join_requests" ADD CONSTRAINT "join_requests_staff_id_staff_members_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_members"("id") ON DELETE set null ON UPDATE no action;