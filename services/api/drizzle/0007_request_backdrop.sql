-- The title's TMDB backdrop, stored with a request at creation for the pages where the request is
-- the subject (issue 14). Nullable: older rows and the bot's requests have none.
ALTER TABLE "media_requests" ADD COLUMN "backdrop_path" text;--> statement-breakpoint
ALTER TABLE "media_requests" ADD CONSTRAINT "media_requests_backdrop_path_ck" CHECK ("media_requests"."backdrop_path" is null or "media_requests"."backdrop_path" ~ '^/[A-Za-z0-9._-]+$');