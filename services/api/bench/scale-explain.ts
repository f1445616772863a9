// `npm run bench:scale -- --explain`: EXPLAIN (ANALYZE, BUFFERS) of each admin list's queries on
// the largest PostgreSQL community, as the API sends them (the same filters, order, limit and
// offset; `$1` is now). Kept in docs/performance.md ("Scale").
const user = `select u.* from users u join (select id from users`;
const page = (order: string, offset = 0) =>
  `${order} limit 20 offset ${offset}) p using (id) ${order}`;
const usersOrder = (col: string) => `order by ${col} desc nulls last, id desc`;

function upcoming(columns: string, limit: number, offset: number, count = false): string {
  const part = ([d, below]: [number, number]) =>
    `(select ${columns}${count ? '' : `, ${d} as days, greatest(u.expires_at - ${d} * interval '1 day', $1::timestamptz) as due_at`} from users u
      where u.role = 'user' and u.is_active and not u.media_access_disabled
        and u.expires_at > $1::timestamptz + ${below} * interval '1 day'
        and u.expires_at <= $1::timestamptz + interval '14 days' + ${d} * interval '1 day'
      order by u.expires_at, u.id limit ${limit + offset})`;
  const all = (
    [
      [7, 3],
      [3, 1],
      [1, 0],
    ] as [number, number][]
  )
    .map(part)
    .join(' union all ');
  return count
    ? `select count(*) from (select 1 from (${all}) a limit ${limit}) c`
    : `select * from (${all}) a order by due_at, expires_at, id, days desc limit ${limit} offset ${offset}`;
}

export const EXPLAINS: [string, string][] = [
  ['users: count', `select count(*) from users`],
  ['users: page 1 (createdAt)', `${user} ${page(usersOrder('created_at'))}`],
  ['users: page 2000 (createdAt)', `${user} ${page(usersOrder('created_at'), 39_980)}`],
  [
    'users?status=expired&sort=lastLoginAt: count',
    `select count(*) from users where expires_at <= $1`,
  ],
  [
    'users?status=expired&sort=lastLoginAt: page',
    `${user} where expires_at <= $1 ${page(usersOrder('last_login_at'))}`,
  ],
  ['users?sort=expiresAt: page', `${user} ${page(usersOrder('expires_at'))}`],
  // The audit log and redemptions count at most 10 000 rows (db/paging.ts `countUpTo`).
  [
    'audit-log: count (capped)',
    `select count(*) from (select 1 from audit_log limit 10001) counted`,
  ],
  [
    'audit-log?action=user.: count (capped)',
    `select count(*) from (select 1 from audit_log where action like 'user.%' limit 10001) counted`,
  ],
  [
    'audit-log: page 1',
    `select a.* from audit_log a join (select id from audit_log order by at desc, id desc limit 20 offset 0) p using (id) order by a.at desc, a.id desc`,
  ],
  [
    'audit-log?page=2000',
    `select a.* from audit_log a join (select id from audit_log order by at desc, id desc limit 20 offset 39980) p using (id) order by a.at desc, a.id desc`,
  ],
  [
    'audit-log?action=user.: page',
    `select a.* from audit_log a join (select id from audit_log where action like 'user.%' order by at desc, id desc limit 20) p using (id) order by a.at desc, a.id desc`,
  ],
  // Issue 36: the dashboard's membership counts and a month of revenue.
  [
    'dashboard: members',
    `select (select count(*) from users where role = 'user' and expires_at > $1) as active, (select count(*) from users where role = 'user' and expires_at <= $1) as expired, (select count(*) from users where role = 'user' and created_at >= $1::timestamptz - interval '30 days') as joined, (select count(*) from users where role = 'user' and expires_at > $1 and expires_at <= $1::timestamptz + interval '30 days') as expiring, (select count(*) from users where role = 'user' and expires_at > $1::timestamptz - interval '30 days' and expires_at <= $1) as lapsed, (select count(*) from payments where status = 'completed' and completed_at >= $1::timestamptz - interval '30 days') + (select count(*) from redemptions where created_at >= $1::timestamptz - interval '30 days') as renewals`,
  ],
  [
    'dashboard: revenue of a month',
    `select currency, sum(amount), count(*) from payments where status = 'completed' and completed_at >= $1::timestamptz - interval '30 days' and completed_at < $1 group by currency`,
  ],
  ['payments: count', `select count(*) from payments`],
  ['payments: page', `select * from payments order by created_at desc, id desc limit 20`],
  [
    'payments?status=completed: page',
    `select * from payments where status = 'completed' order by created_at desc, id desc limit 20`,
  ],
  [
    'media-requests: page',
    `select r.*, u.username from media_requests r left join users u on u.id = r.reviewed_by order by r.created_at desc, r.id desc limit 20`,
  ],
  [
    'media-requests?status=PENDING: page',
    `select r.*, u.username from media_requests r left join users u on u.id = r.reviewed_by where r.status = 'PENDING' order by r.created_at desc, r.id desc limit 20`,
  ],
  [
    'redeem-codes (active): page',
    `select c.*, u.username from redeem_codes c left join users u on u.id = c.created_by where not (c.used_count >= c.max_uses) and not (c.expires_at is not null and c.expires_at <= $1) order by c.created_at desc, c.id desc limit 20`,
  ],
  ['redemptions: page', `select * from redemptions order by created_at desc, id desc limit 20`],
  [
    'redemptions: count (capped)',
    `select count(*) from (select 1 from redemptions r join users u on u.id = r.user_id limit 10001) counted`,
  ],
  // lifecycle/upcoming?days=14 with REMINDER_DAYS 7,3,1 (lifecycle/queries.ts): one index walk
  // per threshold, cut at the page, merged.
  ['lifecycle/upcoming: page 1', upcoming('u.id, u.expires_at', 20, 0)],
  ['lifecycle/upcoming: page 50', upcoming('u.id, u.expires_at', 20, 980)],
  ['lifecycle/upcoming: count (capped)', upcoming('1', 10_001, 0, true)],
  [
    'devices/actions: page',
    `select * from device_actions order by created_at desc, id desc limit 20`,
  ],
  [
    'notices: page',
    `select n.*, u.username from member_notices n join users u on u.id = n.user_id order by n.created_at desc, n.id desc limit 20`,
  ],
];
