ALTER TABLE "users" ADD COLUMN "data_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- users.data_version moves whenever something a user's cached lists show changes. The triggers are
-- deferred constraint triggers: they run at commit, after every row lock the transaction takes, so
-- bumping the user row never waits while holding a process row (no lock-order deadlocks).
CREATE FUNCTION "bump_owner_data_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    UPDATE "users" SET "data_version" = "data_version" + 1 WHERE "id" = NEW."user_id";
  END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD."user_id" IS DISTINCT FROM NEW."user_id") THEN
    UPDATE "users" SET "data_version" = "data_version" + 1 WHERE "id" = OLD."user_id";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Catalogue rows are shared: their change moves the users whose processes use them. Arguments: the
-- processes column that points at the row (prompt_id or voice_id), then the row's column holding it.
CREATE FUNCTION "bump_users_of_catalogue_row"() RETURNS trigger LANGUAGE plpgsql AS $$
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
  ELSE
    UPDATE "users" SET "data_version" = "data_version" + 1
      WHERE "id" IN (SELECT "user_id" FROM "processes" WHERE "prompt_id" = changed);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "processes_data_version" AFTER INSERT OR UPDATE OR DELETE ON "processes"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_owner_data_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "channels_data_version" AFTER INSERT OR UPDATE OR DELETE ON "channels"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_owner_data_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "youtube_apis_data_version" AFTER INSERT OR UPDATE OR DELETE ON "youtube_apis"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_owner_data_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "executions_data_version" AFTER INSERT OR DELETE ON "executions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_owner_data_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "prompts_data_version" AFTER UPDATE OR DELETE ON "prompts"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_users_of_catalogue_row"('prompt_id', 'id');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "prompt_languages_data_version" AFTER INSERT OR UPDATE OR DELETE ON "prompt_languages"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_users_of_catalogue_row"('prompt_id', 'prompt_id');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "voices_data_version" AFTER UPDATE OR DELETE ON "voices"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_users_of_catalogue_row"('voice_id', 'id');
--> statement-breakpoint
-- Every change of a user row (data_version included) is announced on "user_changed" with its id: the
-- embedded database's single server keeps signed-in users in memory and drops them on this signal.
CREATE FUNCTION "notify_user_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('user_changed', OLD."id"::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_changed" AFTER UPDATE OR DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION "notify_user_changed"();
