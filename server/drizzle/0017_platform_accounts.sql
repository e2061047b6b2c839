CREATE TABLE "platform_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"platform" text NOT NULL,
	"name" text NOT NULL,
	"client_id" text,
	"client_secret_enc" text,
	"external_id" text,
	"username" text,
	"display_name" text,
	"avatar_url" text,
	"access_token_enc" text,
	"access_expires_at" timestamp with time zone,
	"refresh_token_enc" text,
	"refresh_expires_at" timestamp with time zone,
	"scopes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"choices" jsonb,
	"private_only" boolean DEFAULT false NOT NULL,
	"max_duration_sec" integer,
	"privacy_levels" jsonb,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_connected" boolean DEFAULT false NOT NULL,
	"disconnect_reason" text,
	"last_tested" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "platform_accounts_platform_check" CHECK ("platform_accounts"."platform" in ('tiktok', 'instagram'))
);
--> statement-breakpoint
ALTER TABLE "oauth_states" ADD COLUMN "code_verifier_enc" text;--> statement-breakpoint
ALTER TABLE "platform_accounts" ADD CONSTRAINT "platform_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "platform_accounts_user_created_idx" ON "platform_accounts" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "platform_accounts_external_idx" ON "platform_accounts" USING btree ("user_id","platform","external_id") WHERE "platform_accounts"."external_id" is not null;