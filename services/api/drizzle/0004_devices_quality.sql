CREATE TABLE "client_blacklist" (
	"id" uuid PRIMARY KEY NOT NULL,
	"client_name" text NOT NULL,
	"normalized_name" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_blacklist_client_name_len_ck" CHECK (char_length("client_blacklist"."client_name") between 1 and 100),
	CONSTRAINT "client_blacklist_reason_len_ck" CHECK (char_length("client_blacklist"."reason") <= 255)
);
--> statement-breakpoint
CREATE TABLE "device_actions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"action" text NOT NULL,
	"device_id" text,
	"device_name" text,
	"client_name" text,
	"media_user_id" text,
	"user_id" uuid,
	"actor_id" uuid,
	"outcome" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_actions_action_ck" CHECK ("device_actions"."action" in ('logout', 'blacklist_add', 'blacklist_remove', 'enforce_blacklist')),
	CONSTRAINT "device_actions_outcome_ck" CHECK ("device_actions"."outcome" in ('ok', 'failed')),
	CONSTRAINT "device_actions_note_len_ck" CHECK (char_length("device_actions"."note") <= 500)
);
--> statement-breakpoint
CREATE TABLE "media_quality_reports" (
	"library_id" text PRIMARY KEY NOT NULL,
	"library_name" text NOT NULL,
	"collection_type" text,
	"item_count" integer DEFAULT 0 NOT NULL,
	"report" jsonb,
	"schema_version" smallint DEFAULT 1 NOT NULL,
	"computed_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"scan_started_at" timestamp with time zone,
	"scan_error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_quality_reports_scan_error_len_ck" CHECK (char_length("media_quality_reports"."scan_error") <= 500)
);
--> statement-breakpoint
ALTER TABLE "client_blacklist" ADD CONSTRAINT "client_blacklist_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_actions" ADD CONSTRAINT "device_actions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_actions" ADD CONSTRAINT "device_actions_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "client_blacklist_normalized_name_uq" ON "client_blacklist" USING btree ("normalized_name");--> statement-breakpoint
CREATE INDEX "device_actions_created_at_idx" ON "device_actions" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "device_actions_device_id_idx" ON "device_actions" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "device_actions_user_id_idx" ON "device_actions" USING btree ("user_id");