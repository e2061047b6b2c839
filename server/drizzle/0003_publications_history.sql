DROP INDEX "publications_user_published_idx";--> statement-breakpoint
DROP INDEX "publications_user_status_published_idx";--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "search_title" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "listed_at" timestamp with time zone GENERATED ALWAYS AS (coalesce(published_at, created_at)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "publications_user_listed_idx" ON "publications" USING btree ("user_id","listed_at");--> statement-breakpoint
CREATE INDEX "publications_user_status_listed_idx" ON "publications" USING btree ("user_id","status","listed_at");