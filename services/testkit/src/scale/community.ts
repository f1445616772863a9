// The scale fixture's Usher side (issue 33): a community of N members with everything the admin
// lists, the member pages and the jobs read, written straight into a database the API has
// migrated (its own schema), in a few set-based `INSERT … SELECT … FROM generate_series`
// statements — the database builds the rows, nothing is sent row by row. Every value comes from
// md5 of the seed and the row number, so one seed gives the same community, id for id, on
// PostgreSQL and on PGlite.

/** What the generator needs of a connection: `pg.Client` and `PGlite` both fit. */
export interface SqlRunner {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface ScaleCommunityOptions {
  /** Members (default 100 000). */
  members?: number;
  /** Any text; the same seed gives the same rows (default `usher-scale`). */
  seed?: string;
  /** The instant the community is built around (default now). */
  now?: Date;
  /** The `password_hash` every member gets (an argon2id PHC string of a known password). */
  passwordHash: string;
}

/**
 * How the members are laid out by their number `i` (1…N); `E` = N / 10. The bench and the
 * tests read these to know whom to sign in as and what a filter must return.
 */
export interface ScaleLayout {
  members: number;
  /** 1…E: expired within the last hour, media account still enabled (`expiry_check`'s work). */
  due: { from: number; to: number };
  /** E+1…2E: membership ends 2–3 days from now (`expiry_reminders`' work). */
  expiring: { from: number; to: number };
  /** 2E+1…3E: ended weeks ago, media account already disabled. */
  lapsed: { from: number; to: number };
  /** Every 10th member after 3E never expires; the rest end 30–395 days from now. */
  /** The media-server user id of member `i` (32 hex, as Jellyfin writes it). */
  mediaUserId(i: number): string;
  username(i: number): string;
  /** `count` members after the lapsed ones who are active, linked and can sign in. */
  activeMembers(count: number): number[];
  /** The administrator the build adds (same password as the members, no change required). */
  admin: string;
  /** Rows per table after the build. */
  counts: Record<string, number>;
}

/** Member `i`'s media user id; the media fixture writes the same ids into its plays. */
export const scaleMediaUserId = (i: number): string => `5ca1e${i.toString(16).padStart(27, '0')}`;
/** Member `i`'s username: `m` and six digits (`m000042`). */
export const scaleUsername = (i: number): string => `m${String(i).padStart(6, '0')}`;

/** The tables the generator fills, in dependency order. */
const TABLES = [
  'users',
  'plans',
  'payments',
  'redeem_codes',
  'redemptions',
  'media_requests',
  'audit_log',
  'device_actions',
  'member_notices',
  'announcements',
  'announcement_recipients',
  'ranking_batches',
  'playback_rankings',
  'calendar_series',
  'calendar_episodes',
  'calendar_follows',
] as const;

export function scaleLayout(members: number): Omit<ScaleLayout, 'counts'> {
  const e = Math.max(1, Math.floor(members / 10));
  return {
    members,
    due: { from: 1, to: e },
    expiring: { from: e + 1, to: 2 * e },
    lapsed: { from: 2 * e + 1, to: 3 * e },
    mediaUserId: scaleMediaUserId,
    username: scaleUsername,
    admin: 'scaleadmin',
    activeMembers: (count) => {
      const out: number[] = [];
      // Every 97th member is switched off, every 20th after 3E (3E+1, …) is unlinked.
      for (let i = 3 * e + 1; i <= members && out.length < count; i++) {
        if (i % 97 !== 0 && i % 20 !== 1) out.push(i);
      }
      return out;
    },
  };
}

/**
 * Builds the community into an empty, migrated Usher database and returns its layout with the
 * row count of every table it filled. Statements run one after another on the given connection;
 * `pg_temp` functions keep the hashing helpers out of the API's schema.
 */
export async function buildScaleCommunity(
  db: SqlRunner,
  opts: ScaleCommunityOptions,
): Promise<ScaleLayout> {
  const n = opts.members ?? 100_000;
  const seed = opts.seed ?? 'usher-scale';
  const now = (opts.now ?? new Date()).toISOString();
  const layout = scaleLayout(n);
  const e = layout.due.to;
  const run = (text: string, params: unknown[] = []) => db.query(text, params);

  // h(salt, i): a stable integer in 0…2^28-1; u(salt, i): a stable uuid; both from md5.
  await run(
    `create function pg_temp.h(salt text, i bigint) returns bigint language sql immutable as
       $$ select ('x' || substr(md5('${esc(seed)}:' || salt || ':' || i), 1, 7))::bit(28)::bigint $$`,
  );
  await run(
    `create function pg_temp.u(salt text, i bigint) returns uuid language sql immutable as
       $$ select md5('${esc(seed)}:' || salt || ':' || i)::uuid $$`,
  );
  await run(`create function pg_temp.now0() returns timestamptz language sql immutable as
       $$ select '${now}'::timestamptz $$`);

  // Members. Layout: see ScaleLayout. 5 % of the active ones are not linked to the media server.
  await run(
    `insert into users (id, username, email, password_hash, role, is_active, expires_at,
       media_user_id, media_disabled, registered_via, locale, last_login_at, created_at, updated_at)
     select pg_temp.u('user', i), 'm' || lpad(i::text, 6, '0'),
       case when i % 7 = 0 then null else 'm' || i || '@scale.example' end,
       $1, 'user', i % 97 <> 0,
       case
         when i <= $3 then pg_temp.now0() - make_interval(secs => 1 + pg_temp.h('due', i) % 3500)
         when i <= 2 * $3 then pg_temp.now0() + interval '2 days'
           + make_interval(secs => pg_temp.h('exp', i) % 86400)
         when i <= 3 * $3 then pg_temp.now0() - interval '14 days'
           - make_interval(secs => pg_temp.h('lap', i) % (86400 * 700))
         when i % 10 = 0 then null
         else pg_temp.now0() + interval '30 days' + make_interval(secs => pg_temp.h('act', i) % (86400 * 365))
       end,
       case when i > 3 * $3 and i % 20 = 1 then null
         else '5ca1e' || lpad(to_hex(i), 27, '0') end,
       i > 2 * $3 and i <= 3 * $3,
       (array['open', 'invite', 'admin'])[1 + i % 3],
       case i % 4 when 0 then 'zh-CN' when 1 then 'en' else null end,
       case when pg_temp.h('login', i) % 5 = 0 then null
         else pg_temp.now0() - make_interval(secs => pg_temp.h('login', i) % (86400 * 730)) end,
       pg_temp.now0() - interval '1 day' - make_interval(secs => pg_temp.h('created', i) % (86400 * 730)),
       pg_temp.now0() - interval '1 hour'
     from generate_series(1, $2::int) i`,
    [opts.passwordHash, n, e],
  );

  await run(
    `insert into users (id, username, password_hash, role, registered_via, created_at, updated_at)
     values (pg_temp.u('admin', 1), $1, $2, 'admin', 'admin', pg_temp.now0() - interval '800 days',
       pg_temp.now0() - interval '800 days')`,
    [layout.admin, opts.passwordHash],
  );

  // Plans and one payment per member, most of them completed.
  await run(
    `insert into plans (id, name, days, price, currency, sort_order)
     select pg_temp.u('plan', p), (array['Month', 'Quarter', 'Year'])[p],
       (array[30, 90, 365])[p], (array[500, 1300, 4800])[p], 'usd', p
     from generate_series(1, 3) p`,
  );
  await run(
    `insert into payments (id, user_id, plan_id, username, plan_name, provider_session_id,
       amount, currency, days, status, expires_at, completed_at, created_at, updated_at)
     select pg_temp.u('payment', k), pg_temp.u('user', m), pg_temp.u('plan', p),
       'm' || lpad(m::text, 6, '0'), (array['Month', 'Quarter', 'Year'])[p],
       'cs_scale_' || k, (array[500, 1300, 4800])[p], 'usd', (array[30, 90, 365])[p],
       s, at + interval '1 day', case when s = 'completed' then at + interval '1 minute' end,
       at, at
     from (
       select k, 1 + (k - 1) % $1 as m, 1 + pg_temp.h('plan', k) % 3 as p,
         case when k % 50 = 0 then 'failed' when k % 13 = 0 then 'expired' else 'completed' end as s,
         pg_temp.now0() - interval '2 days' - make_interval(secs => pg_temp.h('paid', k) % (86400 * 720)) as at
       from generate_series(1, $1::int) k
     ) x`,
    [n],
  );

  // Redeem codes (N/10, ten uses each) and a redemption for every other member.
  const codes = Math.max(1, Math.floor(n / 10));
  await run(
    `insert into redeem_codes (id, code, max_uses, used_count, days, expires_at, notes, created_at,
       updated_at)
     select pg_temp.u('code', c), upper(substr(md5('${esc(seed)}:code:' || c), 1, 16)), 10,
       case when c <= $2 then 0 else 10 end, 30,
       case when c % 4 = 0 then pg_temp.now0() + interval '60 days' end,
       'batch ' || (c % 20), pg_temp.now0() - make_interval(secs => pg_temp.h('code', c) % (86400 * 720)),
       pg_temp.now0() - interval '1 day'
     from generate_series(1, $1::int) c`,
    [codes, Math.ceil(codes / 2)],
  );
  await run(
    `insert into redemptions (id, user_id, code_id, code, kind, days, previous_expires_at,
       new_expires_at, created_at)
     select pg_temp.u('redemption', i), pg_temp.u('user', i), pg_temp.u('code', c),
       upper(substr(md5('${esc(seed)}:code:' || c), 1, 16)),
       case when i % 3 = 0 then 'register' else 'renew' end, 30, null,
       pg_temp.now0() + interval '30 days', pg_temp.now0() - make_interval(secs => pg_temp.h('redeem', i) % (86400 * 700))
     from (select i, $2 + 1 + (i / 2 - 1) % ($3 - $2) as c
           from generate_series(2, $1::int, 2) i) x`,
    [n, Math.ceil(codes / 2), codes],
  );

  // Media requests (N/5): a fifth pending, the rest reviewed.
  await run(
    `insert into media_requests (id, user_id, requester_name, type, tmdb_id, season, name, year,
       note, status, review_source, reviewed_at, reject_reason, created_at, updated_at)
     select pg_temp.u('request', k), pg_temp.u('user', m), 'm' || lpad(m::text, 6, '0'),
       case when k % 3 = 0 then 'TV' else 'MOVIE' end, 100000 + k,
       case when k % 3 = 0 then 1 + k % 4 else 0 end, 'Scale title ' || k, 1970 + k % 55, '',
       st, case when st = 'PENDING' then null else 'manual' end,
       case when st = 'PENDING' then null else at + interval '1 hour' end,
       case when st = 'REJECTED' then 'Not available' end, at, at
     from (
       select k, 1 + pg_temp.h('req-user', k) % $1 as m,
         (array['PENDING', 'APPROVED', 'REJECTED', 'INGESTED', 'INGESTED'])[1 + k % 5] as st,
         pg_temp.now0() - make_interval(secs => pg_temp.h('req', k) % (86400 * 720)) as at
       from generate_series(1, $2::int) k
     ) x`,
    [n, Math.max(1, Math.floor(n / 5))],
  );

  // Audit log: five rows per member over two years (about half of them past the 365-day retention).
  await run(
    `insert into audit_log (id, at, actor_type, actor_id, actor_label, action, target_type,
       target_id, details, ip)
     select pg_temp.u('audit', k), pg_temp.now0() - make_interval(secs => pg_temp.h('audit', k) % (86400 * 730)),
       case when k % 5 = 0 then 'admin' else 'user' end, pg_temp.u('user', m),
       'm' || lpad(m::text, 6, '0'),
       (array['auth.login', 'user.update', 'redeem.use', 'payment.completed', 'request.create',
              'user.renew', 'settings.update'])[1 + k % 7],
       'user', pg_temp.u('user', m)::text, jsonb_build_object('n', k),
       ('10.' || (k % 250) || '.' || (k / 250 % 250) || '.1')::inet
     from (select k, 1 + (k - 1) % $1 as m from generate_series(1, $1::int * 5) k) x`,
    [n],
  );

  // Device actions (N/2 over 180 days: about half past the 90-day retention).
  await run(
    `insert into device_actions (id, action, device_id, device_name, client_name, media_user_id,
       user_id, outcome, created_at)
     select pg_temp.u('device-action', k), (array['logout', 'enforce_blacklist'])[1 + k % 2],
       'dev-' || k, 'Device ' || k % 40, (array['Jellyfin Web', 'Infuse', 'Kodi', 'Swiftfin'])[1 + k % 4],
       '5ca1e' || lpad(to_hex(m), 27, '0'), pg_temp.u('user', m),
       case when k % 25 = 0 then 'failed' else 'ok' end,
       pg_temp.now0() - make_interval(secs => pg_temp.h('device', k) % (86400 * 180))
     from (select k, 1 + pg_temp.h('dev-user', k) % $1 as m from generate_series(1, $2::int) k) x`,
    [n, Math.max(1, Math.floor(n / 2))],
  );

  // Notices: one sent reminder per member about an earlier membership end (a year of them).
  await run(
    `insert into member_notices (id, user_id, kind, ref, channel, status, attempts, expires_at,
       days, created_at, updated_at)
     select pg_temp.u('notice', i), pg_temp.u('user', i), 'expiry_reminder',
       to_char(at, 'YYYY-MM-DD"T"HH24:MI:SS".000Z"') || '/7',
       case when i % 2 = 0 then 'email' else 'messenger' end,
       case when i % 11 = 0 then 'skipped' else 'sent' end, 1, at, 7,
       at - interval '7 days', at - interval '7 days'
     from (select i, pg_temp.now0() - interval '1 day'
                   - make_interval(secs => pg_temp.h('notice', i) % (86400 * 365)) as at
           from generate_series(1, $1::int) i) x`,
    [n],
  );
  // One announcement to everybody, read by a third.
  await run(
    `insert into announcements (id, title, body, audience, channels, recipients, status,
       created_at, finished_at)
     values (pg_temp.u('announcement', 1), 'Maintenance', 'The server restarts on Sunday.', 'all',
       '[]'::jsonb, $1, 'done', pg_temp.now0() - interval '3 days', pg_temp.now0() - interval '3 days')`,
    [n],
  );
  await run(
    `insert into announcement_recipients (announcement_id, user_id, read_at)
     select pg_temp.u('announcement', 1), pg_temp.u('user', i),
       case when i % 3 = 0 then pg_temp.now0() - interval '2 days' end
     from generate_series(1, $1::int) i`,
    [n],
  );

  // Rankings history: 400 daily and 57 weekly batches of ten movies and ten series each.
  await run(
    `insert into ranking_batches (id, period, period_start, period_end, timezone, cutoff_at,
       total_duration_s, trigger, push_outcome, generated_at)
     select pg_temp.u('batch-' || period, d), period, day, day + span, 'UTC',
       (day + span + 1)::timestamp at time zone 'UTC', 1000000 + pg_temp.h('dur', d) % 1000000,
       'schedule', 'sent', (day + span + 1)::timestamp at time zone 'UTC' + interval '5 minutes'
     from (
       select 'daily' as period, d, (pg_temp.now0() at time zone 'UTC')::date - d as day, 0 as span
       from generate_series(1, 400) d
       union all
       select 'weekly', d, date_trunc('week', pg_temp.now0() at time zone 'UTC')::date - 7 * d, 6
       from generate_series(1, 57) d
     ) x`,
  );
  await run(
    `insert into playback_rankings (id, batch_id, category, rank, item_key, item_name, play_count,
       duration_s)
     select md5(b.id::text || c || r)::uuid, b.id, c, r, 'item-' || c || '-' || r,
       initcap(c) || ' ' || r, 1000 - r * 10, 360000 - r * 1000
     from ranking_batches b, unnest(array['movie', 'series']) c, generate_series(1, 10) r`,
  );

  // Watch calendar: 500 followed series, twenty episodes each, followed by half the members.
  await run(
    `insert into calendar_series (id, tmdb_id, media_series_id, name, tmdb_status, is_continuing,
       last_synced_at, created_at, updated_at)
     select pg_temp.u('series', s), 500000 + s, null, 'Scale series ' || s, 'Returning Series',
       true, pg_temp.now0() - interval '1 day', pg_temp.now0() - interval '90 days',
       pg_temp.now0() - interval '1 day'
     from generate_series(1, 500) s`,
  );
  await run(
    `insert into calendar_episodes (id, series_id, season, episode, name, air_date, created_at,
       updated_at)
     select pg_temp.u('episode', s * 100 + ep), pg_temp.u('series', s), 1, ep,
       'Episode ' || ep, (pg_temp.now0() at time zone 'UTC')::date + (ep - 10) * 7 + s % 7,
       pg_temp.now0() - interval '90 days', pg_temp.now0() - interval '1 day'
     from generate_series(1, 500) s, generate_series(1, 20) ep`,
  );
  await run(
    `insert into calendar_follows (user_id, series_id, created_at)
     select pg_temp.u('user', i), pg_temp.u('series', 1 + pg_temp.h('follow', i) % 500),
       pg_temp.now0() - interval '30 days'
     from generate_series(1, $1::int, 2) i`,
    [n],
  );

  // Vacuumed as autovacuum keeps a live database: index-only scans need the visibility map.
  for (const table of TABLES) await run(`vacuum analyze ${table}`);
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const { rows } = await run(`select count(*)::int as n from ${table}`);
    counts[table] = (rows[0] as { n: number }).n;
  }
  await run('drop function pg_temp.h(text, bigint)');
  await run('drop function pg_temp.u(text, bigint)');
  await run('drop function pg_temp.now0()');
  return { ...layout, counts };
}

/**
 * Rows already past their retention (10-data.md §11) for the `cleanup` job to delete: device
 * actions, payment webhook events and notices about memberships that ended long ago, `rows` in
 * all. Ids continue after the community's own.
 */
export async function addRetentionBacklog(
  db: SqlRunner,
  opts: { rows: number; members: number; seed?: string; now?: Date },
): Promise<void> {
  const seed = esc(opts.seed ?? 'usher-scale');
  const now = (opts.now ?? new Date()).toISOString();
  const third = Math.floor(opts.rows / 3);
  const old = `'${now}'::timestamptz - interval '200 days'`;
  await db.query(
    `insert into device_actions (id, action, device_id, outcome, created_at)
     select md5('${seed}:old-device:' || k)::uuid, 'logout', 'old-' || k, 'ok',
       ${old} - make_interval(secs => k % 86400)
     from generate_series(1, $1::int) k`,
    [third],
  );
  await db.query(
    `insert into payment_webhook_events (event_id, type, livemode, status, received_at)
     select 'evt_scale_old_' || k, 'checkout.session.completed', false, 'processed',
       ${old} - make_interval(secs => k % 86400)
     from generate_series(1, $1::int) k`,
    [third],
  );
  await db.query(
    `insert into member_notices (id, user_id, kind, ref, channel, status, attempts, expires_at,
       days, created_at, updated_at)
     select md5('${seed}:old-notice:' || k)::uuid, md5('${seed}:user:' || (1 + (k - 1) % $2))::uuid,
       'expiry_reminder', 'old/' || k, 'webhook', 'sent', 1, ${old}, 7, ${old}, ${old}
     from generate_series(1, $1::int) k`,
    [opts.rows - 2 * third, opts.members],
  );
}

const esc = (text: string) => text.replace(/'/g, "''");
