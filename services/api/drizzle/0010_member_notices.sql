CREATE TABLE "announcement_recipients" (
	"announcement_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"read_at" timestamp with time zone,
	CONSTRAINT "announcement_recipients_announcement_id_user_id_pk" PRIMARY KEY("announcement_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "announcements" (
	"id" uuid PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"audience" text NOT NULL,
	"channels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" uuid,
	"recipients" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'sending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "announcements_audience_ck" CHECK ("announcements"."audience" in ('all', 'active', 'expiring', 'expired')),
	CONSTRAINT "announcements_status_ck" CHECK ("announcements"."status" in ('sending', 'done'))
);
--> statement-breakpoint
CREATE TABLE "inactivity_watch" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"warned_at" timestamp with time zone NOT NULL,
	"disabled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "media_account_deletions" (
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"media_user_id" text NOT NULL,
	"warned_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "media_account_deletions_user_id_expires_at_pk" PRIMARY KEY("user_id","expires_at")
);
--> statement-breakpoint
CREATE TABLE "member_notices" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"ref" text NOT NULL,
	"channel" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"detail" text,
	"expires_at" timestamp with time zone,
	"days" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_notices_kind_ck" CHECK ("member_notices"."kind" in ('expiry_reminder', 'announcement', 'deletion_warning', 'inactivity_warning')),
	CONSTRAINT "member_notices_channel_ck" CHECK ("member_notices"."channel" in ('email', 'messenger', 'webhook')),
	CONSTRAINT "member_notices_status_ck" CHECK ("member_notices"."status" in ('sending', 'sent', 'failed', 'skipped')),
	CONSTRAINT "member_notices_attempts_ck" CHECK ("member_notices"."attempts" between 0 and 3),
	CONSTRAINT "member_notices_days_ck" CHECK ("member_notices"."days" is null or "member_notices"."days" between 1 and 60)
);
--> statement-breakpoint
-- The reminders already sent move over, one row per channel, so an upgrade reminds nobody twice
-- (ref = the membership end as the code writes it, ISO 8601 in UTC with milliseconds, "/" days).
INSERT INTO "member_notices" ("id", "user_id", "kind", "ref", "channel", "status", "attempts", "expires_at", "days", "created_at", "updated_at")
SELECT gen_random_uuid(), r."user_id", 'expiry_reminder',
	to_char(r."expires_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '/' || r."days",
	c.key, CASE WHEN c.value IN ('sent', 'failed', 'skipped') THEN c.value ELSE 'failed' END, 1,
	r."expires_at", r."days", r."created_at", r."created_at"
FROM "membership_reminders" r CROSS JOIN LATERAL jsonb_each_text(r."channels") c
WHERE c.key IN ('email', 'messenger', 'webhook');--> statement-breakpoint
DROP TABLE "membership_reminders" CASCADE;--> statement-breakpoint
ALTER TABLE "media_server_retry_queue" DROP CONSTRAINT "media_retry_origin_ck";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notify_email" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notify_messenger" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "inactivity_exempt" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "announcement_recipients" ADD CONSTRAINT "announcement_recipients_announcement_id_announcements_id_fk" FOREIGN KEY ("announcement_id") REFERENCES "public"."announcements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcement_recipients" ADD CONSTRAINT "announcement_recipients_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inactivity_watch" ADD CONSTRAINT "inactivity_watch_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_account_deletions" ADD CONSTRAINT "media_account_deletions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_notices" ADD CONSTRAINT "member_notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "announcement_recipients_user_idx" ON "announcement_recipients" USING btree ("user_id","read_at");--> statement-breakpoint
CREATE INDEX "announcements_created_idx" ON "announcements" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "member_notices_uq" ON "member_notices" USING btree ("user_id","kind","ref","channel");--> statement-breakpoint
CREATE INDEX "member_notices_created_idx" ON "member_notices" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "member_notices_user_idx" ON "member_notices" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "media_server_retry_queue" ADD CONSTRAINT "media_retry_origin_ck" CHECK ("media_server_retry_queue"."origin" in ('register_cleanup', 'renewal', 'expiry', 'admin_access', 'user_delete', 'policy_apply', 'grace_delete', 'inactivity'));