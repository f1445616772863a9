CREATE TABLE "playback_plays" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source_rowid" bigint NOT NULL,
	"played_at" timestamp with time zone NOT NULL,
	"media_user_id" text NOT NULL,
	"item_id" text NOT NULL,
	"item_type" text NOT NULL,
	"item_name" text NOT NULL,
	"play_method" text NOT NULL,
	"client" text NOT NULL,
	"device" text NOT NULL,
	"seconds" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "playback_sync" (
	"source" text PRIMARY KEY NOT NULL,
	"cursor" bigint DEFAULT 0 NOT NULL,
	"rows_copied" bigint DEFAULT 0 NOT NULL,
	"backfilled_at" timestamp with time zone,
	"synced_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "playback_plays_key_uq" ON "playback_plays" USING btree ("played_at","media_user_id","item_id");--> statement-breakpoint
CREATE INDEX "playback_plays_user_at_idx" ON "playback_plays" USING btree ("media_user_id","played_at");--> statement-breakpoint
CREATE INDEX "playback_plays_item_at_idx" ON "playback_plays" USING btree ("item_id","played_at");