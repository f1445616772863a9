// The `/__fake/*` control API, for the demo and for tests in other processes (spec 50 §6).
import type http from 'node:http';
import { parseBody } from '../fake-server/body.js';
import { sendJson } from '../fake-server/reply.js';
import type { FakeTelegram, InjectedError } from './fake.js';
import type { TgChat, TgMemberStatus, TgUser } from './types.js';
import type { UpdateDraft } from './updates.js';

type Body = Record<string, unknown>;

export async function handleControl(
  fake: FakeTelegram,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
): Promise<void> {
  const route = `${req.method ?? 'GET'} ${url.pathname.slice('/__fake'.length)}`;
  const parsed = await parseBody(req);
  const body = (parsed.value ?? {}) as Body;
  switch (route) {
    case 'GET /calls':
      return sendJson(res, 200, fake.calls);
    case 'DELETE /calls':
      fake.resetCalls();
      return sendJson(res, 200, { ok: true });
    case 'POST /reset':
      fake.reset();
      return sendJson(res, 200, { ok: true });
    case 'POST /updates': {
      const draft = body.update as UpdateDraft;
      if (body.deliver === 'webhook') return sendJson(res, 200, await fake.pushUpdate(draft));
      return sendJson(res, 200, { update: fake.queueUpdate(draft) });
    }
    case 'POST /chats':
      fake.seedChat(body.chat as TgChat);
      return sendJson(res, 200, { ok: true });
    case 'POST /users':
      fake.seedUser(body.user as TgUser);
      return sendJson(res, 200, { ok: true });
    case 'POST /members':
      fake.setMember(Number(body.chat_id), body.user as TgUser, body.status as TgMemberStatus);
      return sendJson(res, 200, { ok: true });
    case 'POST /blocked':
      fake.block(Number(body.user_id));
      return sendJson(res, 200, { ok: true });
    case 'DELETE /blocked':
      fake.unblock(Number(body.user_id));
      return sendJson(res, 200, { ok: true });
    case 'POST /next-error': {
      const error: InjectedError = {
        error_code: Number(body.error_code),
        description: String(body.description),
        ...(body.retry_after !== undefined
          ? { parameters: { retry_after: Number(body.retry_after) } }
          : {}),
      };
      fake.failNext(String(body.method), error, Number(body.times ?? 1));
      return sendJson(res, 200, { ok: true });
    }
    case 'GET /messages':
      return sendJson(res, 200, fake.messages(Number(url.searchParams.get('chat_id'))));
    case 'GET /webhook':
      return sendJson(res, 200, fake.state.webhook);
    default:
      return sendJson(res, 404, { ok: false, description: `unknown control route ${route}` });
  }
}
