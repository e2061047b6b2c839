ALTER TABLE "executions" ALTER COLUMN "status" SET DEFAULT 'queued';--> statement-breakpoint
ALTER TABLE "executions" ALTER COLUMN "started_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "executions" ALTER COLUMN "started_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "queued_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
UPDATE "executions" SET "queued_at" = "created_at";--> statement-breakpoint
UPDATE "executions" SET "status" = 'queued', "started_at" = NULL WHERE "status" = 'running' AND "heartbeat_at" IS NULL AND "lease_owner" IS NULL;--> statement-breakpoint
UPDATE "processes" SET "status" = 'queued' WHERE "status" = 'running' AND EXISTS (SELECT 1 FROM "executions" e WHERE e."process_id" = "processes"."id" AND e."status" = 'queued');--> statement-breakpoint
CREATE INDEX "executions_status_queued_idx" ON "executions" USING btree ("status","queued_at");