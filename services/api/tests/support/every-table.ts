import { sql } from 'drizzle-orm';
import type { Database } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { queryRows } from '../../src/db/sql.js';
import { MIGRATIONS } from './database.js';

/** 0.1.0's schema: 0000_foundation … 0009_membership_reminders. */
export const RELEASE_010_MIGRATIONS = 10;

/**
 * Rows in every table of the schema as of release 0.1.0 (migrations 0000–0009), written by
 * generate_series in a few statements so 10 000 members take well under a second. Values include
 * what a dump/restore could get wrong: newlines, quotes and non-ASCII in text and jsonb, 52-bit
 * Telegram ids, inet, date, char(n), a self-reference (media_requests.retry_from_id), a lease
 * pointing at a run, and encrypted settings as stored.
 *
 * Kept to 0.1.0's schema on purpose: the upgrade test loads it into a 0.1.0 database and lets the
 * current migrations carry it forward. Tables added later get their rows from
 * `fillNewerTables` below, so the round-trip suites still cover every table.
 */
export async function fillRelease010Tables(db: Database, members: number): Promise<void> {
  const n = Math.max(members, 100);
  const tenth = Math.max(Math.floor(n / 10), 10);
  const statements = [
    sql`insert into users (id, username, email, password_hash, role, registered_via, created_at, updated_at)
        values ('00000000-0000-7000-8000-000000000001', 'fixture_admin', null,
          '$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2g', 'admin', 'bootstrap',
          '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z')`,
    sql`insert into users (id, username, email, password_hash, role, registered_via, expires_at,
          media_user_id, media_disabled, messenger_id, messenger_bound_at, locale, last_login_at,
          token_version, created_at, updated_at)
        select gen_random_uuid(), 'member_' || g, 'member' || g || '@example.org',
          '$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2g', 'user',
          case when g % 3 = 0 then 'open' else 'invite' end,
          timestamptz '2026-06-01T00:00:00Z' + (g || ' hours')::interval,
          md5('media' || g), g % 7 = 0, 4503599627370000 + g,
          case when g % 2 = 0 then timestamptz '2025-05-05T05:05:05.123456Z' end,
          case when g % 2 = 0 then 'en' else 'zh-CN' end, now() - (g || ' minutes')::interval,
          g % 4, timestamptz '2025-01-01T00:00:00Z' + (g || ' seconds')::interval, now()
        from generate_series(1, ${n}) g`,
    sql`insert into settings (key, value, is_encrypted, updated_by, updated_at) values
        ('SITE_NAME', 'Fixture "site" — ü 🎬', false, '00000000-0000-7000-8000-000000000001', now()),
        ('MEDIA_SERVER_API_KEY', 'v1.a1b2c3d4.bm9uY2Vub25jZQ.Y2lwaGVydGV4dHRhZw', true, null, now()),
        ('MESSENGER_WELCOME_TEMPLATE', E'line one\nline two\ttab \\ backslash', false, null, now())`,
    sql`insert into redeem_codes (id, code, max_uses, used_count, days, expires_at, notes, created_by)
        select gen_random_uuid(), upper(lpad(to_hex(g), 16, '0')), 5, 1, 30,
          case when g % 2 = 0 then now() + interval '30 days' end, E'note\n' || g,
          '00000000-0000-7000-8000-000000000001'
        from generate_series(1, ${tenth}) g`,
    sql`insert into redemptions (id, user_id, code_id, code, kind, days, previous_expires_at, new_expires_at)
        select gen_random_uuid(), u.id, c.id, c.code, 'renew', 30, null, now() + interval '30 days'
        from (select id, row_number() over (order by username) rn from users where role = 'user') u
        join (select id, code, row_number() over (order by code) rn from redeem_codes) c on c.rn = u.rn`,
    sql`insert into messenger_bind_codes (user_id, code, expires_at)
        select id, lpad(rn::text, 6, '0'), now() + interval '5 minutes'
        from (select id, row_number() over (order by username) rn from users where role = 'user') u
        where rn <= 100`,
    sql`insert into email_codes (id, purpose, email, user_id, code, sent, ip, attempts, expires_at, consumed_at)
        select gen_random_uuid(), (array['register','reset','change_email'])[1 + g % 3],
          'code' || g || '@example.org', null, lpad(g::text, 6, '0'), g % 2 = 0,
          ('203.0.113.' || (g % 250))::inet, (g % 5)::smallint, now() + interval '10 minutes',
          case when g % 3 = 0 then now() end
        from generate_series(1, 100) g`,
    sql`insert into plans (id, name, description, days, price, currency, is_active, sort_order) values
        ('00000000-0000-7000-8000-0000000000a1', 'Month', 'One month', 30, 500, 'usd', true, 1),
        ('00000000-0000-7000-8000-0000000000a2', 'Year ¥', '', 365, 99999999, 'jpy', true, 2),
        ('00000000-0000-7000-8000-0000000000a3', 'Old', 'withdrawn', 7, 100, 'eur', false, 3)`,
    sql`insert into payments (id, user_id, plan_id, username, plan_name, provider_session_id,
          payment_intent, amount, currency, days, status, expires_at, completed_at,
          previous_expires_at, new_expires_at)
        select gen_random_uuid(), u.id, '00000000-0000-7000-8000-0000000000a1', u.username, 'Month',
          'cs_test_' || u.rn, 'pi_' || u.rn, 500, 'usd', 30, 'completed',
          now() + interval '30 minutes', now(), now(), now() + interval '30 days'
        from (select id, username, row_number() over (order by username) rn from users where role = 'user') u
        where rn <= ${tenth}`,
    sql`insert into payment_webhook_events (event_id, type, livemode, payment_id, status, received_at, processed_at)
        select 'evt_' || row_number() over (order by id), 'checkout.session.completed', false, id,
          'processed', now(), now()
        from payments`,
    sql`insert into media_requests (id, user_id, requester_name, type, tmdb_id, season, name, year,
          poster_path, note, status, review_source, reviewed_at, reviewed_via, reject_reason,
          automation_candidates, ingest_progress)
        select gen_random_uuid(), u.id, u.username, case when u.rn % 2 = 0 then 'TV' else 'MOVIE' end,
          u.rn, case when u.rn % 2 = 0 then 1 else 0 end, 'Title «' || u.rn || '»', 2000 + u.rn % 25,
          '/p' || u.rn || '.jpg', E'please\n"soon"',
          case when u.rn % 5 = 0 then 'REJECTED' when u.rn % 3 = 0 then 'APPROVED' else 'PENDING' end,
          case when u.rn % 3 = 0 then 'manual' end, case when u.rn % 3 = 0 then now() end,
          case when u.rn % 3 = 0 then 'web' end,
          case when u.rn % 5 = 0 then 'not available' end,
          case when u.rn % 4 = 0 then jsonb_build_array(jsonb_build_object('index', 1, 'title',
            'Some.Release.2160p', 'sizeBytes', 123456789012, 'raw', jsonb_build_object('x', 'ü\n'))) end,
          case when u.rn % 2 = 0 then '{"have":3,"total":10,"last":"S01E03"}'::jsonb end
        from (select id, username, row_number() over (order by username) rn from users where role = 'user') u
        where rn <= ${tenth}`,
    sql`update media_requests r set retry_from_id = p.id
        from media_requests p where p.tmdb_id = r.tmdb_id + 1 and r.tmdb_id % 10 = 1`,
    sql`insert into request_admin_messages (id, request_id, approver_messenger_id, chat_id, message_id,
          has_photo, delivery_status)
        select gen_random_uuid(), id, 4503599627370001, -1001234567890, tmdb_id, tmdb_id % 2 = 0, 'sent'
        from media_requests`,
    sql`insert into bot_pending_actions (id, kind, chat_id, messenger_user_id, payload, expires_at)
        select gen_random_uuid(), 'search', g, 4503599627370000 + g,
          jsonb_build_object('query', 'q ' || g, 'results', jsonb_build_array(g, 'ü')),
          now() + interval '10 minutes'
        from generate_series(1, 100) g`,
    sql`insert into ranking_batches (id, period, period_start, period_end, timezone, cutoff_at,
          total_duration_s, trigger, generated_by, push_outcome, generated_at)
        select gen_random_uuid(), 'daily', date '2026-01-01' + g, date '2026-01-01' + g,
          'Europe/Berlin', now(), 9007199254740 + g, 'schedule', null, 'sent', now()
        from generate_series(1, 10) g`,
    sql`insert into playback_rankings (id, batch_id, category, rank, item_key, item_name, play_count, duration_s)
        select gen_random_uuid(), b.id, case when g % 2 = 0 then 'movie' else 'series' end,
          ((g - 1) / 2 + 1)::smallint, md5(b.id::text || g), 'Item ' || g, g * 3, g * 3600
        from ranking_batches b, generate_series(1, 10) g`,
    sql`insert into media_quality_reports (library_id, library_name, collection_type, item_count,
          report, computed_at, expires_at)
        select md5('lib' || g), 'Library ' || g, 'movies', g * 100,
          jsonb_build_object('resolution', jsonb_build_object('2160p', g, '1080p', 2 * g)), now(),
          now() + interval '1 day'
        from generate_series(1, 3) g`,
    sql`insert into client_blacklist (id, client_name, normalized_name, reason, created_by)
        select gen_random_uuid(), 'Client ' || g, 'client ' || g, 'because', null
        from generate_series(1, 5) g`,
    sql`insert into device_actions (id, action, device_id, device_name, client_name, media_user_id,
          user_id, actor_id, outcome, note)
        select gen_random_uuid(), 'logout', 'dev' || g, 'Device ' || g, 'Infuse', md5('media' || g),
          null, '00000000-0000-7000-8000-000000000001', 'ok', null
        from generate_series(1, ${tenth}) g`,
    sql`insert into calendar_series (id, tmdb_id, media_series_id, name, poster_path, tmdb_status,
          is_continuing, last_synced_at)
        select gen_random_uuid(), 100000 + g, md5('series' || g), 'Series ' || g, '/s' || g || '.jpg',
          'Returning Series', g % 5 <> 0, now()
        from generate_series(1, 50) g`,
    sql`insert into calendar_episodes (id, series_id, season, episode, name, overview, air_date,
          media_item_id, available_at)
        select gen_random_uuid(), s.id, 1, g, 'Episode ' || g, E'An episode.\nSecond line.',
          date '2026-03-01' + g, case when g % 2 = 0 then md5(s.id::text || g) end,
          case when g % 2 = 0 then now() end
        from calendar_series s, generate_series(1, 10) g`,
    sql`insert into calendar_follows (user_id, series_id)
        select u.id, s.id
        from (select id, row_number() over (order by username) rn from users where role = 'user') u
        join (select id, row_number() over (order by tmdb_id) rn from calendar_series) s
          on s.rn = 1 + u.rn % 50
        where u.rn <= ${tenth}`,
    sql`insert into tmdb_cache (key, value, expires_at)
        select 'tv:' || g, jsonb_build_object('id', g, 'name', 'Show ' || g, 'seasons', jsonb_build_array()),
          now() + interval '1 day'
        from generate_series(1, 100) g`,
    sql`insert into media_server_retry_queue (id, operation, media_user_id, user_id, origin, status,
          attempts, next_attempt_at, last_error)
        select gen_random_uuid(), 'disable', md5('media' || g), null, 'expiry', 'done', 1::smallint,
          now(), 'timeout'
        from generate_series(1, 100) g`,
    sql`insert into job_runs (id, job_name, trigger, scheduled_for, replica_id, status, params,
          summary, error, started_at, finished_at)
        select gen_random_uuid(), 'cleanup', 'schedule',
          timestamptz '2026-01-01T03:30:00Z' + (g || ' days')::interval, 'host:1:abcdef', 'succeeded',
          null, jsonb_build_object('removed', jsonb_build_object('audit_log', g)), null, now(), now()
        from generate_series(1, 100) g`,
    sql`insert into job_leases (job_name, owner_id, run_id, acquired_at, expires_at)
        select 'cleanup', 'host:1:abcdef', id, now(), now() + interval '60 seconds'
        from job_runs order by id limit 1`,
    sql`insert into audit_log (id, at, actor_type, actor_id, actor_label, action, target_type,
          target_id, details, ip, request_id)
        select gen_random_uuid(), now() - (g || ' seconds')::interval, 'admin',
          '00000000-0000-7000-8000-000000000001', 'fixture_admin', 'user.extend', 'user', g::text,
          jsonb_build_object('before', g, 'after', g + 30, 'note', E'ü "q"\n'),
          case when g % 2 = 0 then '2001:db8::1'::inet else '198.51.100.7'::inet end, 'req-' || g
        from generate_series(1, ${n}) g`,
    sql`insert into rate_limits (key, points, expire)
        select 'login_ip:198.51.100.' || g, g, now() + interval '15 minutes'
        from generate_series(1, 100) g`,
    sql`insert into membership_reminders (id, user_id, expires_at, days, channels)
        select gen_random_uuid(), id, expires_at, 7, '{"email":"sent"}'::jsonb
        from users where role = 'user' order by username limit 100`,
  ];
  await db.transaction(async (tx) => {
    for (const statement of statements) await tx.execute(statement);
  });
}

/**
 * Rows for tables added after 0.1.0's schema. Add a statement here with each new table: the
 * round-trip suites fail on an empty table.
 */
export async function fillNewerTables(db: Database): Promise<void> {
  const newer = [
    // 0010_member_notices: announcements with their recipients and per-channel notices
    // (the reminders sent before 0010 arrive in member_notices through the migration itself).
    sql`insert into announcements (id, title, body, audience, channels, created_by, recipients,
          status, created_at, finished_at)
        select gen_random_uuid(), 'News ' || g, E'Line one\nline «two» 🎬', 'active',
          '["email","messenger"]'::jsonb, '00000000-0000-7000-8000-000000000001', 50, 'done',
          now() - (g || ' days')::interval, now()
        from generate_series(1, 5) g`,
    sql`insert into announcement_recipients (announcement_id, user_id, read_at)
        select a.id, u.id, case when u.rn % 2 = 0 then now() end
        from announcements a,
          (select id, row_number() over (order by username) rn from users where role = 'user') u
        where u.rn <= 50`,
    sql`insert into member_notices (id, user_id, kind, ref, channel, status, attempts, detail)
        select gen_random_uuid(), r.user_id, 'announcement', r.announcement_id::text, 'email',
          'sent', 1, null
        from announcement_recipients r`,
    // 0010: the grace period's deletions and the inactivity watch.
    sql`insert into media_account_deletions (user_id, expires_at, media_user_id, warned_at, deleted_at)
        select id, expires_at, media_user_id, now() - interval '3 days',
          case when username like '%0' then now() end
        from users where role = 'user' order by username limit 40`,
    sql`insert into inactivity_watch (user_id, warned_at, disabled_at)
        select id, now() - interval '8 days', case when username like '%1' then now() end
        from users where role = 'user' order by username desc limit 40`,
    // 0011: the bot's polling lease (the bot writes it; the API only creates the table).
    sql`insert into bot_leases (name, owner_id, expires_at, acquired_at, renewed_at)
        values ('messenger_polling', 'bot-replica-1', now() + interval '30 seconds', now(), now())`,
    // 0012: single sign-on — linked identities and the one-time hand-off codes.
    sql`insert into user_identities (id, user_id, issuer, subject, email, last_used_at)
        select gen_random_uuid(), id, 'https://id.example/application/o/usher/', 'sub-' || username,
          username || '@id.example', case when username like '%2' then now() end
        from users where role = 'user' order by username limit 30`,
    sql`insert into sso_handoffs (id, code_hash, kind, user_id, payload, expires_at)
        select gen_random_uuid(), md5(username), 'login', id, '{}'::jsonb, now() + interval '1 minute'
        from users where role = 'user' order by username limit 3`,
    // 0013: account sharing — observations (public, IPv6 /64 and home), events with evidence,
    // an exempt member, a suspension, and a plan's stream limit.
    sql`insert into sharing_observations (id, user_id, session_id, device_id, device_name, client,
          address, network, home, city, country, latitude, longitude, item_name, started_at,
          last_seen_at, ended_at)
        select gen_random_uuid(), id, md5('session' || username), 'device-' || username,
          E'Wohnzimmer «TV» 📺', 'Emby Web',
          case when username like '%3' then '2a01:4f8:c17:1a2b::10' else '85.214.132.117' end,
          case when username like '%3' then '2a01:4f8:c17:1a2b::/64' else '85.214.132.117' end,
          false, 'Berlin (Charlottenburg-Wilmersdorf)', 'DE', 52.5234, 13.3224, E'Film\nline',
          now() - interval '1 hour', now(), case when username like '%4' then now() end
        from users where role = 'user' order by username limit 30`,
    sql`insert into sharing_observations (id, user_id, session_id, device_id, address, network,
          home, started_at, last_seen_at)
        select gen_random_uuid(), id, 's-home', 'device-home', '192.168.1.10', 'home', true,
          now() - interval '2 hours', now()
        from users where role = 'user' order by username limit 5`,
    sql`insert into sharing_events (id, user_id, rule, cooldown_hour, detected_at, evidence, action,
          status, action_taken, actioned_at, action_error, dismissed_at, note)
        select gen_random_uuid(), id, (array['streams','networks','devices','travel'])[1 + (rn % 4)],
          date_trunc('hour', now()), now(),
          '{"limit":1,"count":2,"sessions":[],"networks":["85.214.132.117"],"devices":[],"places":[]}'::jsonb,
          'stop', (array['open','actioned','dismissed'])[1 + (rn % 3)],
          case when rn % 3 = 1 then 'stop' end, case when rn % 3 = 1 then now() end,
          case when rn % 5 = 0 then E'Emby refused «x»' end,
          case when rn % 3 = 2 then now() end, case when rn % 3 = 2 then E'trip\nabroad' end
        from (select id, row_number() over (order by username) rn from users where role = 'user') u
        where rn <= 12`,
    sql`update users set sharing_exempt = true
        where id in (select id from users where role = 'user' order by username limit 2)`,
    sql`update users set sharing_suspended_until = now() + interval '5 hours'
        where id in (select id from users where role = 'user' order by username desc limit 2)`,
    sql`update plans set max_streams = 2 where id in (select id from plans limit 1)`,
    // 0018: the plays copy and where its sync stands.
    sql`insert into playback_plays (source_rowid, played_at, media_user_id, item_id, item_type,
          item_name, play_method, client, device, seconds)
        select g, timestamptz '2026-01-01T00:00:00Z' + (g || ' minutes')::interval, md5('media' || g),
          'item' || (g % 7), 'Episode', E'Série «Ü» - s01e0' || (g % 9) || ' - l''été', 'Transcode',
          'Emby Web', E'Wohnzimmer 📺', g * 60
        from generate_series(1, 40) g`,
    sql`insert into playback_sync (source, cursor, rows_copied, backfilled_at, synced_at)
        values ('plugin', 40, 40, now(), now())`,
  ];
  for (const statement of newer) await db.execute(statement);
}

/**
 * Every table of the current schema filled the way a real install gets there: a database at
 * 0.1.0's schema (`db` must have no migrations yet) with 0.1.0's rows, carried forward by the
 * current migrations, then rows for the tables added since.
 */
export async function fillEveryTable(db: Database, members: number): Promise<void> {
  await migrate(db, MIGRATIONS, undefined, { only: RELEASE_010_MIGRATIONS });
  await fillRelease010Tables(db, members);
  await migrate(db, MIGRATIONS);
  await fillNewerTables(db);
}

/**
 * Row count and an order-independent digest of every public table, computed by the database from
 * each row's text form (in UTC), independently of the backup code.
 */
export async function tableDigests(db: Database): Promise<Record<string, string>> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local timezone = 'UTC'`);
    const tables = await queryRows<{ name: string }>(
      tx,
      sql`select tablename as name from pg_tables where schemaname = 'public' order by 1`,
    );
    const out: Record<string, string> = {};
    for (const { name } of tables) {
      const [row] = await queryRows<{ n: string | number; digest: string | null }>(
        tx,
        sql`select count(*) as n, md5(string_agg(md5(t::text), '' order by md5(t::text))) as digest
            from ${sql.identifier(name)} t`,
      );
      out[name] = `${Number(row!.n)}:${row!.digest ?? '-'}`;
    }
    return out;
  });
}
