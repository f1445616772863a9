CREATE TABLE "media_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid,
	"requester_name" text NOT NULL,
	"type" text NOT NULL,
	"tmdb_id" integer NOT NULL,
	"season" integer DEFAULT 0 NOT NULL,
	"name" text NOT NULL,
	"year" integer,
	"poster_path" text,
	"note" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"review_source" text,
	"reviewed_at" timestamp with time zone,
	"reviewed_by" uuid,
	"reviewed_via" text,
	"reviewer_messenger_id" bigint,
	"reject_reason" text,
	"retry_from_id" uuid,
	"dispatched_at" timestamp with time zone,
	"automation_ref" text,
	"automation_error" text,
	"automation_candidates" jsonb,
	"candidates_searched_at" timestamp with time zone,
	"ingest_progress" jsonb,
	"ingested_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_requests_type_ck" CHECK ("media_requests"."type" in ('MOVIE', 'TV')),
	CONSTRAINT "media_requests_tmdb_id_ck" CHECK ("media_requests"."tmdb_id" > 0),
	CONSTRAINT "media_requests_season_ck" CHECK ("media_requests"."season" >= 0),
	CONSTRAINT "media_requests_movie_season_ck" CHECK ("media_requests"."type" = 'TV' or "media_requests"."season" = 0),
	CONSTRAINT "media_requests_status_ck" CHECK ("media_requests"."status" in ('PENDING', 'APPROVED', 'REJECTED', 'INGESTED')),
	CONSTRAINT "media_requests_review_source_ck" CHECK ("media_requests"."review_source" is null or "media_requests"."review_source" in ('manual', 'auto_quota', 'auto_admin')),
	CONSTRAINT "media_requests_reviewed_via_ck" CHECK ("media_requests"."reviewed_via" is null or "media_requests"."reviewed_via" in ('web', 'messenger', 'system')),
	CONSTRAINT "media_requests_reject_reason_ck" CHECK ("media_requests"."status" <> 'REJECTED' or "media_requests"."reject_reason" is not null),
	CONSTRAINT "media_requests_name_len_ck" CHECK (char_length("media_requests"."name") between 1 and 200),
	CONSTRAINT "media_requests_note_len_ck" CHECK (char_length("media_requests"."note") <= 500),
	CONSTRAINT "media_requests_reject_reason_len_ck" CHECK ("media_requests"."reject_reason" is null or char_length("media_requests"."reject_reason") <= 500),
	CONSTRAINT "media_requests_automation_error_len_ck" CHECK ("media_requests"."automation_error" is null or char_length("media_requests"."automation_error") <= 500),
	CONSTRAINT "media_requests_poster_path_ck" CHECK ("media_requests"."poster_path" is null or "media_requests"."poster_path" ~ '^/[A-Za-z0-9._-]+$')
);
--> statement-breakpoint
CREATE TABLE "request_admin_messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"request_id" uuid NOT NULL,
	"approver_messenger_id" bigint,
	"chat_id" bigint NOT NULL,
	"message_id" bigint,
	"has_photo" boolean DEFAULT false NOT NULL,
	"delivery_status" text NOT NULL,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "request_admin_messages_status_ck" CHECK ("request_admin_messages"."delivery_status" in ('sent', 'send_failed', 'edit_failed', 'deleted')),
	CONSTRAINT "request_admin_messages_reason_len_ck" CHECK ("request_admin_messages"."failure_reason" is null or char_length("request_admin_messages"."failure_reason") <= 500)
);
--> statement-breakpoint
CREATE TABLE "bot_pending_actions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"chat_id" bigint NOT NULL,
	"messenger_user_id" bigint NOT NULL,
	"payload" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bot_pending_actions_kind_ck" CHECK ("bot_pending_actions"."kind" ~ '^[a-z][a-z0-9_]{1,31}$')
);
--> statement-breakpoint
CREATE TABLE "tmdb_cache" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tmdb_cache_key_len_ck" CHECK (char_length("tmdb_cache"."key") <= 255)
);
--> statement-breakpoint
ALTER TABLE "media_requests" ADD CONSTRAINT "media_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_requests" ADD CONSTRAINT "media_requests_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_requests" ADD CONSTRAINT "media_requests_retry_from_id_media_requests_id_fk" FOREIGN KEY ("retry_from_id") REFERENCES "public"."media_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_admin_messages" ADD CONSTRAINT "request_admin_messages_request_id_media_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."media_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "media_requests_active_uq" ON "media_requests" USING btree ("type","tmdb_id","season") WHERE "media_requests"."status" in ('PENDING', 'APPROVED', 'INGESTED');--> statement-breakpoint
CREATE INDEX "media_requests_user_idx" ON "media_requests" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "media_requests_status_idx" ON "media_requests" USING btree ("status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "media_requests_retry_from_idx" ON "media_requests" USING btree ("retry_from_id");--> statement-breakpoint
CREATE INDEX "media_requests_quota_idx" ON "media_requests" USING btree ("user_id","reviewed_at") WHERE "media_requests"."review_source" = 'auto_quota';--> statement-breakpoint
CREATE INDEX "request_admin_messages_request_idx" ON "request_admin_messages" USING btree ("request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "request_admin_messages_message_uq" ON "request_admin_messages" USING btree ("chat_id","message_id") WHERE "request_admin_messages"."message_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "bot_pending_actions_key_uq" ON "bot_pending_actions" USING btree ("kind","chat_id","messenger_user_id");--> statement-breakpoint
CREATE INDEX "bot_pending_actions_expires_idx" ON "bot_pending_actions" USING btree ("expires_at");