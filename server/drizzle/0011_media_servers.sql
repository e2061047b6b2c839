ALTER TABLE "chat_model_configs" ADD COLUMN "speech_base_url" text;--> statement-breakpoint
ALTER TABLE "chat_model_configs" ADD COLUMN "speech_model" text;--> statement-breakpoint
ALTER TABLE "chat_model_configs" ADD COLUMN "image_base_url" text;--> statement-breakpoint
ALTER TABLE "chat_model_configs" ADD COLUMN "image_model" text;