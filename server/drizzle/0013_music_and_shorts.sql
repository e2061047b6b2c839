CREATE TABLE "music_tracks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"name" text NOT NULL,
	"mood" text NOT NULL,
	"format" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"duration_seconds" real NOT NULL,
	"loudness_lufs" real,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "processes" ADD COLUMN "format" text DEFAULT 'video' NOT NULL;--> statement-breakpoint
ALTER TABLE "processes" ADD COLUMN "music_id" uuid;--> statement-breakpoint
ALTER TABLE "music_tracks" ADD CONSTRAINT "music_tracks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "music_tracks_created_idx" ON "music_tracks" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "processes" ADD CONSTRAINT "processes_music_id_music_tracks_id_fk" FOREIGN KEY ("music_id") REFERENCES "public"."music_tracks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "processes_music_idx" ON "processes" USING btree ("music_id");--> statement-breakpoint
-- A track's name is shown with the processes that use it: its change moves their owners' list
-- versions (migration 0004), like a prompt's or a voice's.
CREATE OR REPLACE FUNCTION "bump_users_of_catalogue_row"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed uuid;
BEGIN
  IF TG_OP = 'DELETE' THEN
    changed := (to_jsonb(OLD) ->> TG_ARGV[1])::uuid;
  ELSE
    changed := (to_jsonb(NEW) ->> TG_ARGV[1])::uuid;
  END IF;
  IF TG_ARGV[0] = 'voice_id' THEN
    UPDATE "users" SET "data_version" = "data_version" + 1
      WHERE "id" IN (SELECT "user_id" FROM "processes" WHERE "voice_id" = changed);
  ELSIF TG_ARGV[0] = 'music_id' THEN
    UPDATE "users" SET "data_version" = "data_version" + 1
      WHERE "id" IN (SELECT "user_id" FROM "processes" WHERE "music_id" = changed);
  ELSE
    UPDATE "users" SET "data_version" = "data_version" + 1
      WHERE "id" IN (SELECT "user_id" FROM "processes" WHERE "prompt_id" = changed);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "music_tracks_data_version" AFTER UPDATE OR DELETE ON "music_tracks"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_users_of_catalogue_row"('music_id', 'id');
