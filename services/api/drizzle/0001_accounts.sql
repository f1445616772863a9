CREATE TABLE "redeem_codes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"code" char(16) NOT NULL,
	"max_uses" integer DEFAULT 1 NOT NULL,
	"used_count" integer DEFAULT 0 NOT NULL,
	"days" integer NOT NULL,
	"expires_at" timestamp with time zone,
	"notes" text DEFAULT '' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "redeem_codes_max_uses_ck" CHECK ("redeem_codes"."max_uses" between 1 and 10000),
	CONSTRAINT "redeem_codes_used_count_ck" CHECK ("redeem_codes"."used_count" between 0 and "redeem_codes"."max_uses"),
	CONSTRAINT "redeem_codes_days_ck" CHECK ("redeem_codes"."days" between 1 and 3650),
	CONSTRAINT "redeem_codes_notes_len_ck" CHECK (char_length("redeem_codes"."notes") <= 500),
	CONSTRAINT "redeem_codes_code_ck" CHECK ("redeem_codes"."code" ~ '^[0-9A-F]{16}$')
);
--> statement-breakpoint
CREATE TABLE "redemptions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"code_id" uuid,
	"code" char(16) NOT NULL,
	"kind" text NOT NULL,
	"days" integer NOT NULL,
	"previous_expires_at" timestamp with time zone,
	"new_expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "redemptions_kind_ck" CHECK ("redemptions"."kind" in ('register', 'renew'))
);
--> statement-breakpoint
CREATE TABLE "email_codes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"email" text NOT NULL,
	"user_id" uuid,
	"code" char(6) NOT NULL,
	"sent" boolean NOT NULL,
	"ip" "inet" NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_codes_purpose_ck" CHECK ("email_codes"."purpose" in ('register', 'reset', 'change_email'))
);
--> statement-breakpoint
CREATE TABLE "messenger_bind_codes" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"code" char(6) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media_server_retry_queue" (
	"id" uuid PRIMARY KEY NOT NULL,
	"operation" text NOT NULL,
	"media_user_id" text NOT NULL,
	"user_id" uuid,
	"origin" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_retry_operation_ck" CHECK ("media_server_retry_queue"."operation" in ('enable', 'disable', 'delete')),
	CONSTRAINT "media_retry_origin_ck" CHECK ("media_server_retry_queue"."origin" in ('register_cleanup', 'renewal', 'expiry', 'admin_access', 'user_delete')),
	CONSTRAINT "media_retry_status_ck" CHECK ("media_server_retry_queue"."status" in ('pending', 'done', 'gave_up')),
	CONSTRAINT "media_retry_error_len_ck" CHECK ("media_server_retry_queue"."last_error" is null or char_length("media_server_retry_queue"."last_error") <= 500)
);
--> statement-breakpoint
ALTER TABLE "redeem_codes" ADD CONSTRAINT "redeem_codes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redemptions" ADD CONSTRAINT "redemptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redemptions" ADD CONSTRAINT "redemptions_code_id_redeem_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."redeem_codes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_codes" ADD CONSTRAINT "email_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messenger_bind_codes" ADD CONSTRAINT "messenger_bind_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_server_retry_queue" ADD CONSTRAINT "media_server_retry_queue_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "redeem_codes_code_uq" ON "redeem_codes" USING btree ("code");--> statement-breakpoint
CREATE INDEX "redeem_codes_created_at_idx" ON "redeem_codes" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "redemptions_user_code_uq" ON "redemptions" USING btree ("user_id","code");--> statement-breakpoint
CREATE INDEX "redemptions_code_id_idx" ON "redemptions" USING btree ("code_id");--> statement-breakpoint
CREATE INDEX "redemptions_created_at_idx" ON "redemptions" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "email_codes_email_idx" ON "email_codes" USING btree ("email","purpose","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "email_codes_ip_idx" ON "email_codes" USING btree ("ip","purpose","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "messenger_bind_codes_code_uq" ON "messenger_bind_codes" USING btree ("code");--> statement-breakpoint
CREATE INDEX "media_retry_due_idx" ON "media_server_retry_queue" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE UNIQUE INDEX "media_retry_pending_access_uq" ON "media_server_retry_queue" USING btree ("media_user_id") WHERE "media_server_retry_queue"."status" = 'pending' and "media_server_retry_queue"."operation" in ('enable', 'disable');