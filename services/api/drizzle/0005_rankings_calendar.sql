CREATE TABLE "playback_rankings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"batch_id" uuid NOT NULL,
	"category" text NOT NULL,
	"rank" smallint NOT NULL,
	"item_key" text NOT NULL,
	"item_name" text NOT NULL,
	"play_count" integer NOT NULL,
	"duration_s" bigint NOT NULL,
	CONSTRAINT "playback_rankings_category_ck" CHECK ("playback_rankings"."category" in ('movie', 'series')),
	CONSTRAINT "playback_rankings_rank_ck" CHECK ("playback_rankings"."rank" >= 1),
	CONSTRAINT "playback_rankings_item_name_len_ck" CHECK (char_length("playback_rankings"."item_name") <= 300),
	CONSTRAINT "playback_rankings_counts_ck" CHECK ("playback_rankings"."play_count" >= 0 and "playback_rankings"."duration_s" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ranking_batches" (
	"id" uuid PRIMARY KEY NOT NULL,
	"period" text NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"timezone" text NOT NULL,
	"cutoff_at" timestamp with time zone NOT NULL,
	"total_duration_s" bigint NOT NULL,
	"trigger" text NOT NULL,
	"generated_by" uuid,
	"push_outcome" text,
	"generated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ranking_batches_period_ck" CHECK ("ranking_batches"."period" in ('daily', 'weekly')),
	CONSTRAINT "ranking_batches_trigger_ck" CHECK ("ranking_batches"."trigger" in ('schedule', 'manual')),
	CONSTRAINT "ranking_batches_push_outcome_ck" CHECK ("ranking_batches"."push_outcome" is null or "ranking_batches"."push_outcome" in ('sent', 'skipped', 'failed')),
	CONSTRAINT "ranking_batches_period_range_ck" CHECK ("ranking_batches"."period_end" >= "ranking_batches"."period_start"),
	CONSTRAINT "ranking_batches_total_duration_ck" CHECK ("ranking_batches"."total_duration_s" >= 0)
);
--> statement-breakpoint
CREATE TABLE "calendar_episodes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"series_id" uuid NOT NULL,
	"season" integer NOT NULL,
	"episode" integer NOT NULL,
	"name" text,
	"overview" text,
	"air_date" date,
	"media_item_id" text,
	"available_at" timestamp with time zone,
	"last_checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_episodes_season_ck" CHECK ("calendar_episodes"."season" >= 1),
	CONSTRAINT "calendar_episodes_episode_ck" CHECK ("calendar_episodes"."episode" >= 1),
	CONSTRAINT "calendar_episodes_overview_len_ck" CHECK ("calendar_episodes"."overview" is null or char_length("calendar_episodes"."overview") <= 1000)
);
--> statement-breakpoint
CREATE TABLE "calendar_follows" (
	"user_id" uuid NOT NULL,
	"series_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_follows_user_id_series_id_pk" PRIMARY KEY("user_id","series_id")
);
--> statement-breakpoint
CREATE TABLE "calendar_series" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tmdb_id" integer NOT NULL,
	"media_series_id" text,
	"name" text NOT NULL,
	"poster_path" text,
	"tmdb_status" text,
	"is_continuing" boolean DEFAULT true NOT NULL,
	"last_synced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_series_tmdb_id_ck" CHECK ("calendar_series"."tmdb_id" > 0),
	CONSTRAINT "calendar_series_poster_path_ck" CHECK ("calendar_series"."poster_path" is null or "calendar_series"."poster_path" ~ '^/[A-Za-z0-9._-]+$')
);
--> statement-breakpoint
ALTER TABLE "playback_rankings" ADD CONSTRAINT "playback_rankings_batch_id_ranking_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."ranking_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ranking_batches" ADD CONSTRAINT "ranking_batches_generated_by_users_id_fk" FOREIGN KEY ("generated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_episodes" ADD CONSTRAINT "calendar_episodes_series_id_calendar_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."calendar_series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_follows" ADD CONSTRAINT "calendar_follows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_follows" ADD CONSTRAINT "calendar_follows_series_id_calendar_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."calendar_series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "playback_rankings_batch_rank_uq" ON "playback_rankings" USING btree ("batch_id","category","rank");--> statement-breakpoint
CREATE UNIQUE INDEX "ranking_batches_period_start_uq" ON "ranking_batches" USING btree ("period","period_start");--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_episodes_series_episode_uq" ON "calendar_episodes" USING btree ("series_id","season","episode");--> statement-breakpoint
CREATE INDEX "calendar_episodes_air_date_idx" ON "calendar_episodes" USING btree ("air_date");--> statement-breakpoint
CREATE INDEX "calendar_follows_series_idx" ON "calendar_follows" USING btree ("series_id");--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_series_tmdb_id_uq" ON "calendar_series" USING btree ("tmdb_id");