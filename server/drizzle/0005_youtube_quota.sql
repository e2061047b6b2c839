ALTER TABLE "api_calls" ADD COLUMN "youtube_api_id" uuid;--> statement-breakpoint
ALTER TABLE "api_calls" ADD COLUMN "units" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "api_calls" ADD CONSTRAINT "api_calls_youtube_api_id_youtube_apis_id_fk" FOREIGN KEY ("youtube_api_id") REFERENCES "public"."youtube_apis"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_calls_youtube_api_created_idx" ON "api_calls" USING btree ("youtube_api_id","created_at");