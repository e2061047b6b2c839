CREATE TABLE "alerts_sent" (
	"user_id" uuid NOT NULL,
	"process_id" uuid NOT NULL,
	"cause" text NOT NULL,
	"day" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alerts_sent_process_id_cause_day_pk" PRIMARY KEY("process_id","cause","day")
);
--> statement-breakpoint
CREATE TABLE "notification_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"run_failed" boolean DEFAULT true NOT NULL,
	"authorization" boolean DEFAULT true NOT NULL,
	"quota" boolean DEFAULT true NOT NULL,
	"review" boolean DEFAULT true NOT NULL,
	"webhook_url" text,
	"webhook_secret_enc" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "lease_fence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "processes" ADD COLUMN "publish_mode" text DEFAULT 'auto' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts_sent" ADD CONSTRAINT "alerts_sent_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts_sent" ADD CONSTRAINT "alerts_sent_process_id_processes_id_fk" FOREIGN KEY ("process_id") REFERENCES "public"."processes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alerts_sent_created_idx" ON "alerts_sent" USING btree ("created_at");