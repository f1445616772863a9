CREATE TABLE "payment_webhook_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"provider" text DEFAULT 'stripe' NOT NULL,
	"type" text NOT NULL,
	"livemode" boolean NOT NULL,
	"payment_id" uuid,
	"status" text DEFAULT 'received' NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"error" text,
	"received_at" timestamp with time zone NOT NULL,
	"processed_at" timestamp with time zone,
	CONSTRAINT "payment_webhook_events_status_ck" CHECK ("payment_webhook_events"."status" in ('received', 'processed', 'skipped', 'failed')),
	CONSTRAINT "payment_webhook_events_error_len_ck" CHECK (char_length("payment_webhook_events"."error") <= 500)
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid,
	"plan_id" uuid NOT NULL,
	"username" text NOT NULL,
	"plan_name" text NOT NULL,
	"provider" text DEFAULT 'stripe' NOT NULL,
	"provider_session_id" text,
	"payment_intent" text,
	"checkout_url" text,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"days" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"status_reason" text,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"previous_expires_at" timestamp with time zone,
	"new_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_status_ck" CHECK ("payments"."status" in ('pending', 'completed', 'expired', 'failed')),
	CONSTRAINT "payments_provider_ck" CHECK ("payments"."provider" in ('stripe')),
	CONSTRAINT "payments_status_reason_len_ck" CHECK (char_length("payments"."status_reason") <= 500)
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"days" integer NOT NULL,
	"price" bigint NOT NULL,
	"currency" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plans_name_len_ck" CHECK (char_length("plans"."name") between 1 and 60),
	CONSTRAINT "plans_description_len_ck" CHECK (char_length("plans"."description") <= 500),
	CONSTRAINT "plans_days_ck" CHECK ("plans"."days" between 1 and 3650),
	CONSTRAINT "plans_price_ck" CHECK ("plans"."price" between 1 and 99999999),
	CONSTRAINT "plans_currency_ck" CHECK ("plans"."currency" in ('usd', 'eur', 'gbp', 'cny', 'hkd', 'jpy', 'sgd', 'cad', 'aud', 'kwd'))
);
--> statement-breakpoint
ALTER TABLE "payment_webhook_events" ADD CONSTRAINT "payment_webhook_events_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_webhook_events_payment_idx" ON "payment_webhook_events" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "payment_webhook_events_received_idx" ON "payment_webhook_events" USING btree ("received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_session_uq" ON "payments" USING btree ("provider_session_id") WHERE "payments"."provider_session_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_pending_user_plan_uq" ON "payments" USING btree ("user_id","plan_id") WHERE "payments"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "payments_user_created_idx" ON "payments" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payments_pending_expiry_idx" ON "payments" USING btree ("status","expires_at") WHERE "payments"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "plans_active_sort_idx" ON "plans" USING btree ("is_active","sort_order");