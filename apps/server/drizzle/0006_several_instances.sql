CREATE TABLE "scheduled_runs" (
	"job" text NOT NULL,
	"due_key" text NOT NULL,
	"ran_at" timestamp with time zone NOT NULL,
	CONSTRAINT "scheduled_runs_job_due_key_pk" PRIMARY KEY("job","due_key")
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "send_started_at" timestamp with time zone;