-- The tables that grow with every business and whose rows are updated after they are written (a customer
-- booked, an offer answered, an opening filled, a text sent then delivered). PostgreSQL's default vacuums a
-- table when a fifth of it is dead: at ten million texts that is two million dead row versions, whose index
-- entries every read walks past (issue 30 measured the waitlist page reading 3.5 times the pages at full size
-- for that reason). Vacuum at 1% dead instead, and refresh the planner's statistics at 2% changed.
ALTER TABLE "customers" SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02);--> statement-breakpoint
ALTER TABLE "offers" SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02);--> statement-breakpoint
ALTER TABLE "openings" SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02);--> statement-breakpoint
ALTER TABLE "messages" SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02);
