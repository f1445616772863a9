/**
 * The web image in front of the real Bot image (70-deploy.md §5 "Bot webhook", §8; 40-bot.md
 * §2.5, §3.1). web-image.test.ts checks the webhook path against a Bot stub (secret header
 * intact, 502 once it is gone); here the Bot is the one the image ships: assemble-bot.sh plus the
 * runtime `npm ci`, `node main.js` as uid 1000 (support/bot.ts) in webhook mode, with
 * WEBHOOK_URL the nginx site, API_URL the real API (same INTERNAL_API_SECRET) and the testkit's
 * fake Bot API as its own process. Updates reach the Bot only through Debian's nginx serving the
 * production web build (support/nginx.ts).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApi, logLine, startApi, type Api } from './support/api.js';
import {
  DROP_PRIVILEGES_NEEDS,
  assembleBotImage,
  botImageEnv,
  canDropPrivileges,
  runAsApp,
  startFakeTelegramProcess,
  waitForCall,
  type FakeTelegramProcess,
} from './support/bot.js';
import { assembleWeb, nginxPath, startWebSite, type NginxSite } from './support/nginx.js';
import { freePort, waitForStatus, type Started } from './support/process.js';
import { describeWhen } from './support/tools.js';

const SECRET_HEADER = 'x-telegram-bot-api-secret-token';
/** How long a refused update is watched for a reply (see its test). */
const REFUSED_UPDATE_WINDOW_MS = 500;

/** A Telegram user and their private chat (whose id is the user's), as the platform sends them. */
function privateUser(id: number) {
  const from = { id, is_bot: false, first_name: `User${id}`, language_code: 'en' };
  return { from, chat: { id, type: 'private', first_name: from.first_name } };
}

/** A private command message (telegraf matches commands only by their `bot_command` entity). */
function commandDraft(user: ReturnType<typeof privateUser>, command: string) {
  return {
    message: {
      message_id: 1,
      ...user,
      date: Math.floor(Date.now() / 1000),
      text: command,
      entities: [{ type: 'bot_command', offset: 0, length: command.length }],
    },
  };
}

/** The API's one `request` line for a request id (the Bot sends `tg-<update_id>`). */
async function apiRequest(api: Api, requestId: string) {
  const line = await logLine(
    api,
    (l) => l.includes(`"requestId":"${requestId}"`) && l.includes('"msg":"request"'),
  );
  return JSON.parse(line ?? '{}') as { method?: string; route?: string; status?: number };
}

describeWhen(
  Boolean(nginxPath) && canDropPrivileges,
  'web image + Bot image (webhook mode), container-equivalent (nginx + API + Bot + fake Bot API)',
  `nginx, envsubst and ${DROP_PRIVILEGES_NEEDS}`,
  () => {
    let tmp: string;
    let api: Api;
    let fake: FakeTelegramProcess;
    let site: NginxSite;
    let bot: Started;
    const webhookSecret = randomBytes(32).toString('hex');

    /** POST /messenger/webhook through nginx, as the platform would. */
    const postUpdate = (update: unknown, secret?: string) =>
      fetch(`${site.url}/messenger/webhook`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(secret === undefined ? {} : { [SECRET_HEADER]: secret }),
        },
        body: JSON.stringify(update),
      });
    /** What the Bot sent to a chat (the fake's record of sendMessage calls). */
    const sentTo = async (chatId: number) =>
      (await fake.calls('sendMessage')).filter((c) => Number(c.params.chat_id) === chatId);

    beforeAll(async () => {
      tmp = mkdtempSync(join(tmpdir(), 'usher-web-bot-'));
      chmodSync(tmp, 0o755);
      // The three images' build stages (each an nx cache hit when the sources are unchanged).
      const web = assembleWeb(join(tmp, 'out'));
      buildApi();
      const image = assembleBotImage(tmp);

      const apiDir = join(tmp, 'api');
      mkdirSync(apiDir);
      const botPort = await freePort();
      [api, fake] = await Promise.all([startApi(apiDir), startFakeTelegramProcess(tmp)]);
      // nginx looks the Bot up per request, so it may start first (as in Compose).
      site = await startWebSite(nginxPath!, web, join(tmp, 'web'), {
        API_UPSTREAM: api.url.replace('http://', ''),
        BOT_UPSTREAM: `127.0.0.1:${botPort}`,
      });
      bot = runAsApp(
        image,
        ['main.js'],
        botImageEnv(botPort, {
          MESSENGER_BOT_TOKEN: fake.token,
          MESSENGER_WEBHOOK_SECRET: webhookSecret,
          INTERNAL_API_SECRET: api.secrets.INTERNAL_API_SECRET!,
          MESSENGER_API_ROOT: fake.url,
          API_URL: api.url,
          // The public address is the web site: the platform reaches the Bot through nginx.
          WEBHOOK_URL: site.url,
        }),
      );
      if ((await waitForStatus(`http://127.0.0.1:${botPort}/health`, 200, 60_000)) !== 200)
        throw new Error(`the Bot did not become healthy:\n${bot.output()}`);
    }, 900_000);

    afterAll(async () => {
      if (bot && bot.child.exitCode === null && bot.child.signalCode === null) {
        bot.child.kill('SIGTERM');
        await bot.exited;
      }
      await site?.stop();
      fake?.stop();
      await api?.stop();
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    });

    it('should register ${WEBHOOK_URL}/messenger/webhook with the secret at start', async () => {
      const calls = await waitForCall(fake, 'setWebhook', 20_000);
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({
        status: 200,
        params: { url: `${site.url}/messenger/webhook`, secret_token: webhookSecret },
      });
      expect(await fake.control('GET', '/webhook')).toMatchObject({
        url: `${site.url}/messenger/webhook`,
        secretToken: webhookSecret,
      });
    });

    it('should fetch the runtime settings from the real API with the shared internal secret', async () => {
      const line = await logLine(
        api,
        (l) => l.includes('"route":"/api/v1/internal/settings"') && l.includes('"msg":"request"'),
      );
      expect(JSON.parse(line ?? '{}')).toMatchObject({ method: 'GET', status: 200 });
    });

    it('should pass a /help update with the right secret to the Bot, which answers in that chat', async () => {
      const user = privateUser(610_000_001);
      // The platform knows the chat it delivers from; the fake must too, to accept the reply.
      await fake.control('POST', '/users', { user: user.from });
      await fake.control('POST', '/chats', { chat: user.chat });

      const r = await postUpdate(
        { update_id: 710_000_001, ...commandDraft(user, '/help') },
        webhookSecret,
      );

      expect({ status: r.status, body: await r.json() }).toEqual({
        status: 200,
        body: { ok: true },
      });
      // The Bot answers an update before replying 200, so its sendMessage is already recorded.
      const sent = await sentTo(user.chat.id);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({
        status: 200,
        params: { parse_mode: 'HTML', text: expect.stringContaining('<b>Usher bot</b>') },
      });
      expect(String(sent[0]!.params.text)).toContain('/help');
      expect(site.accessLog()).toMatch(/"POST \/messenger\/webhook HTTP\/1\.1" 200 /);
    });

    it('should answer 401 from the Bot to a wrong or missing secret, and not act on the update', async () => {
      const user = privateUser(610_000_002);
      await fake.control('POST', '/users', { user: user.from });
      await fake.control('POST', '/chats', { chat: user.chat });
      const update = { update_id: 710_000_002, ...commandDraft(user, '/start') };

      for (const secret of [randomBytes(32).toString('hex'), `${webhookSecret}x`, undefined]) {
        const r = await postUpdate(update, secret);
        // The Bot's own error body: nginx passed the request on and relayed the refusal.
        expect({ status: r.status, body: await r.json() }).toMatchObject({
          status: 401,
          body: { error: { code: 'WEBHOOK_TOKEN_INVALID' } },
        });
      }
      // A window for a reply that must not come. An accepted /start on this same loopback path is
      // answered in a few tens of ms; the margin is for a loaded CI machine.
      await new Promise((r) => setTimeout(r, REFUSED_UPDATE_WINDOW_MS));
      expect(await sentTo(user.chat.id)).toEqual([]);
    });

    it('should handle an update the platform delivers to the registered address, asking the real API', async () => {
      const user = privateUser(610_000_003);

      // The fake delivers like Telegram: to the URL and with the secret the Bot registered.
      const pushed = (await fake.control('POST', '/updates', {
        deliver: 'webhook',
        update: commandDraft(user, '/info'),
      })) as { update: { update_id: number }; deliveries: { status: number }[] };

      expect(pushed.deliveries).toEqual([expect.objectContaining({ status: 200 })]);
      // /info looks the account up in the API: 404 MESSENGER_NOT_BOUND, not 401, so the
      // internal secret matched and the unbound user gets the "not linked" answer.
      expect(await apiRequest(api, `tg-${pushed.update.update_id}`)).toMatchObject({
        method: 'POST',
        route: '/api/v1/internal/messenger/lookup',
        status: 404,
      });
      const sent = await sentTo(user.chat.id);
      expect(sent).toHaveLength(1);
      expect(String(sent[0]!.params.text)).toContain("isn't linked yet");
    });
  },
);
