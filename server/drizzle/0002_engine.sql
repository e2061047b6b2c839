ALTER TABLE "executions" ADD COLUMN "error_key" text;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "error_params" jsonb;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "trigger" text DEFAULT 'manual' NOT NULL;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "job_id" text;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "recoveries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "processes" ADD COLUMN "last_error_key" text;--> statement-breakpoint
ALTER TABLE "processes" ADD COLUMN "last_error_params" jsonb;