CREATE TABLE "membership_reminders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"days" integer NOT NULL,
	"channels" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "membership_reminders_days_ck" CHECK ("membership_reminders"."days" between 1 and 60)
);
--> statement-breakpoint
ALTER TABLE "membership_reminders" ADD CONSTRAINT "membership_reminders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "membership_reminders_uq" ON "membership_reminders" USING btree ("user_id","expires_at","days");--> statement-breakpoint
CREATE INDEX "membership_reminders_created_idx" ON "membership_reminders" USING btree ("created_at");