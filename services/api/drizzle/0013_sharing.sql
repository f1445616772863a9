CREATE TABLE "sharing_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"rule" text NOT NULL,
	"cooldown_hour" timestamp with time zone NOT NULL,
	"detected_at" timestamp with time zone NOT NULL,
	"evidence" jsonb NOT NULL,
	"action" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"action_taken" text,
	"actioned_at" timestamp with time zone,
	"actioned_by" uuid,
	"action_error" text,
	"dismissed_at" timestamp with time zone,
	"dismissed_by" uuid,
	"note" text,
	CONSTRAINT "sharing_events_rule_ck" CHECK ("sharing_events"."rule" in ('streams', 'networks', 'devices', 'travel')),
	CONSTRAINT "sharing_events_action_ck" CHECK ("sharing_events"."action" in ('notify', 'message', 'stop', 'suspend')),
	CONSTRAINT "sharing_events_action_taken_ck" CHECK ("sharing_events"."action_taken" is null or "sharing_events"."action_taken" in ('notify', 'message', 'stop', 'suspend')),
	CONSTRAINT "sharing_events_status_ck" CHECK ("sharing_events"."status" in ('open', 'actioned', 'dismissed')),
	CONSTRAINT "sharing_events_note_len_ck" CHECK ("sharing_events"."note" is null or char_length("sharing_events"."note") <= 500)
);
--> statement-breakpoint
CREATE TABLE "sharing_observations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"session_id" text NOT NULL,
	"device_id" text NOT NULL,
	"device_name" text,
	"client" text,
	"address" text NOT NULL,
	"network" text NOT NULL,
	"home" boolean NOT NULL,
	"city" text,
	"country" text,
	"latitude" double precision,
	"longitude" double precision,
	"item_name" text,
	"started_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "media_server_retry_queue" DROP CONSTRAINT "media_retry_origin_ck";--> statement-breakpoint
ALTER TABLE "member_notices" DROP CONSTRAINT "member_notices_kind_ck";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sharing_exempt" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sharing_suspended_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "max_streams" integer;--> statement-breakpoint
ALTER TABLE "sharing_events" ADD CONSTRAINT "sharing_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sharing_events" ADD CONSTRAINT "sharing_events_actioned_by_users_id_fk" FOREIGN KEY ("actioned_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sharing_events" ADD CONSTRAINT "sharing_events_dismissed_by_users_id_fk" FOREIGN KEY ("dismissed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sharing_observations" ADD CONSTRAINT "sharing_observations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sharing_events_member_rule_hour_uq" ON "sharing_events" USING btree ("user_id","rule","cooldown_hour");--> statement-breakpoint
CREATE INDEX "sharing_events_status_detected_idx" ON "sharing_events" USING btree ("status","detected_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "sharing_events_user_detected_idx" ON "sharing_events" USING btree ("user_id","detected_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "sharing_observations_user_seen_idx" ON "sharing_observations" USING btree ("user_id","last_seen_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "sharing_observations_open_idx" ON "sharing_observations" USING btree ("user_id") WHERE "sharing_observations"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "sharing_observations_ended_idx" ON "sharing_observations" USING btree ("ended_at");--> statement-breakpoint
CREATE INDEX "users_sharing_suspended_idx" ON "users" USING btree ("sharing_suspended_until") WHERE "users"."sharing_suspended_until" is not null;--> statement-breakpoint
ALTER TABLE "media_server_retry_queue" ADD CONSTRAINT "media_retry_origin_ck" CHECK ("media_server_retry_queue"."origin" in ('register_cleanup', 'renewal', 'expiry', 'admin_access', 'user_delete', 'policy_apply', 'grace_delete', 'inactivity', 'sharing'));--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_max_streams_ck" CHECK ("plans"."max_streams" is null or "plans"."max_streams" between 1 and 100);--> statement-breakpoint
ALTER TABLE "member_notices" ADD CONSTRAINT "member_notices_kind_ck" CHECK ("member_notices"."kind" in ('expiry_reminder', 'announcement', 'deletion_warning', 'inactivity_warning', 'sharing_suspension'));