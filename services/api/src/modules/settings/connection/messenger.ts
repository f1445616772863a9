import { z } from 'zod';
import type { SettingsReader } from '../../../integrations/common.js';
import { IntegrationHttp } from '../../../integrations/http/client.js';
import { fail, ok, runCheck, warn, type CheckResult, type GroupTest } from './check.js';

/** The bot's `/health` is probed with its own short bound (30-settings.md §6). */
const BOT_HEALTH_TIMEOUT_MS = 5_000;

// 40-bot.md §2.1: `status`, `updateMode` and `webhookRegistered` always; the rest optional.
const healthReply = z.object({
  status: z.string(),
  updateMode: z.string().optional(),
  webhookRegistered: z.boolean().optional(),
  lease: z.object({ held: z.boolean() }).optional(),
  lastError: z.string().optional(),
});

function describeHealth(health: z.infer<typeof healthReply>): string {
  const parts = [health.updateMode ? `${health.updateMode} mode` : 'update mode unknown'];
  if (health.updateMode !== 'polling') {
    parts.push(health.webhookRegistered ? 'webhook registered' : 'webhook not registered');
  }
  if (health.lease) parts.push(health.lease.held ? 'lease held' : 'lease lost');
  return parts.join(', ');
}

/** Who receives registration events and review cards (30-settings.md §4.7). */
async function checkChats(settings: SettingsReader): Promise<CheckResult> {
  const adminChat = await settings.getString('MESSENGER_ADMIN_CHAT_ID');
  const groupChat = await settings.getString('MESSENGER_GROUP_CHAT_ID');
  const approvers = (await settings.get('MESSENGER_APPROVER_IDS')) ?? [];
  const problems: string[] = [];
  const facts: string[] = [];
  if (adminChat) facts.push(`admin chat ${adminChat}`);
  else problems.push('no admin chat: registration and payment events are not posted');
  if (approvers.length) {
    facts.push(`${approvers.length} approver${approvers.length === 1 ? '' : 's'}`);
  } else if (adminChat.startsWith('-')) {
    facts.push('review cards go to the admin group, whose admins decide');
  } else if (adminChat) {
    facts.push('review cards go to the admin chat user');
  } else {
    problems.push('no approvers: review cards reach nobody');
  }
  facts.push(groupChat ? `rankings to group ${groupChat}` : 'rankings to the admin chat');
  return problems.length
    ? warn(`${problems.join('; ')} (${facts.join('; ')})`)
    : ok(facts.join('; '));
}

/**
 * `bot`: `GET {BOT_NOTIFY_URL}/health`, reporting update mode and webhook state; `chats`: the
 * admin chat and approvers as the bot will resolve them.
 */
export const testMessenger: GroupTest = async (ctx) => {
  const base = ctx.config.BOT_NOTIFY_URL?.replace(/\/+$/, '');
  const timeoutMs = Math.min(BOT_HEALTH_TIMEOUT_MS, ctx.timeoutMs);
  const bot = runCheck('bot', { timeoutMs, deadline: ctx.deadline }, async () => {
    if (!base) return warn('BOT_NOTIFY_URL is not set: the API sends no events to the bot');
    const http = new IntegrationHttp('bot', ctx.deps.metrics, ctx.deps.logger);
    const reply = await http.request(`${base}/health`, {
      operation: 'health',
      timeoutMs,
      passStatuses: [503],
    });
    const health = http.parse(reply, 'health', healthReply);
    const state = describeHealth(health);
    if (reply.status === 503 || health.status !== 'ok') {
      const why = health.lastError ? `: ${health.lastError.slice(0, 200)}` : '';
      return fail(`The bot is degraded (${state})${why}`);
    }
    return ok(`The bot is running (${state})`);
  });
  const chats = runCheck('chats', ctx, () => checkChats(ctx.settings));
  return Promise.all([bot, chats]);
};
