-- Trigram indexes for the admin user search (`ilike '%…%'` on username and email; issue 21).
-- pg_trgm ships with PostgreSQL's contrib and is a trusted extension (PostgreSQL 13+: a database
-- owner may create it). Where it is unavailable or may not be created (a server without contrib,
-- a role without CREATE on the database, PGlite opened without the extension) nothing is created
-- and the search keeps working by a sequential scan (docs/performance.md).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    BEGIN
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
    EXCEPTION WHEN insufficient_privilege THEN
      RAISE NOTICE 'pg_trgm not created (insufficient privilege): user search without an index';
    END;
  END IF;
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS "users_username_trgm_idx" ON "users" USING gin ("username" gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);
  END IF;
END $$;
