// POST /user_usage_stats/submit_custom_query — the Playback Reporting plugin's SQL endpoint.
import { bodyObject, ok } from './http.js';
import type { Ctx, Reply, Route } from './http.js';
import { findCaseInsensitive } from './policy.js';

function submitCustomQuery(ctx: Ctx): Reply {
  const body = bodyObject(ctx) ?? {};
  const sql = String(findCaseInsensitive(body, 'CustomQueryString') ?? '');
  // ReplaceUserId swaps UserId cells for user names, a plugin feature Usher leaves off.
  const replace = findCaseInsensitive(body, 'ReplaceUserId') === true;
  const users = ctx.state.users;
  const reply = ctx.state.playback.run(sql, replace ? (id) => users.get(id)?.name : undefined);
  return ok(reply);
}

export const playbackRoutes: Route[] = [
  {
    method: 'POST',
    path: '/user_usage_stats/submit_custom_query',
    auth: 'admin',
    // A server without the plugin has no such route at all: a plain 404 (§1.4).
    when: (state) => state.playback.installed,
    handler: submitCustomQuery,
  },
];
