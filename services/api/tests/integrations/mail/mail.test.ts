import { startFakeSmtp, type FakeSmtp, type FakeSmtpOptions } from '@usher/testkit';
import { MailAdapter } from '../../../src/integrations/mail/adapter.js';
import { transportOptions } from '../../../src/integrations/mail/client.js';
import { MailFactory, readMailSettings } from '../../../src/integrations/mail/factory.js';
import type { MailSettings } from '../../../src/integrations/mail/types.js';
import { integrationDeps, integrationError, MapSettings } from '../support.js';

const message = {
  to: 'member@example.org',
  subject: 'Your code: 123456',
  text: 'Your code is 123456.',
  html: '<p>Your code is <b>123456</b>.</p>',
};

describe('mail adapter against the fake SMTP server', () => {
  let smtp: FakeSmtp;
  const start = async (options: FakeSmtpOptions = {}) => {
    smtp = await startFakeSmtp(options);
    return smtp;
  };
  afterEach(() => smtp.close());

  const settings = (over: Partial<MailSettings> = {}): MailSettings => ({
    host: smtp.host,
    port: smtp.port,
    security: 'none',
    username: '',
    password: '',
    from: 'Usher <no-reply@usher.example>',
    ...over,
  });
  const quick = {
    timeouts: { connectionTimeout: 2000, greetingTimeout: 2000, socketTimeout: 3000 },
  };

  it('should send with accepted recipients and the display-name sender', async () => {
    await start();
    const { deps, metrics } = integrationDeps();

    const sent = await new MailAdapter(settings(), deps).send(message);
    const mail = await smtp.waitForMessage();

    expect(sent).toMatchObject({ accepted: ['member@example.org'], rejected: [] });
    expect(sent.response).toMatch(/^250 /);
    expect(mail.from).toEqual([{ name: 'Usher', address: 'no-reply@usher.example' }]);
    expect(mail.subject).toBe('Your code: 123456');
    expect(mail.secure).toBe(false);
    expect(await metrics.registry.metrics()).toContain(
      'usher_integration_requests_total{system="smtp",operation="send",outcome="ok"} 1',
    );
  });

  it('should verify with AUTH and report the login', async () => {
    await start({ auth: { user: 'mailer', pass: 's3cret-pass' } });

    const probe = await new MailAdapter(
      settings({ username: 'mailer', password: 's3cret-pass' }),
    ).probe();

    expect(probe).toEqual({
      ok: true,
      message: `Connected to 127.0.0.1:${smtp.port} (no TLS), login accepted for mailer`,
      details: [],
    });
    expect(smtp.logins).toEqual([expect.objectContaining({ user: 'mailer', ok: true })]);
  });

  it('should map a refused login (535) to auth without leaking the password', async () => {
    await start({ auth: { user: 'mailer', pass: 'right-pass' } });
    const { deps, logs } = integrationDeps();
    const adapter = new MailAdapter(settings({ username: 'mailer', password: 'wrong-pass' }), deps);

    const probe = await adapter.probe();
    const error = await integrationError(adapter.send(message));

    expect(probe).toMatchObject({ ok: false, kind: 'auth' });
    expect(probe.message).toBe(
      'The mail server refused the login (535 Authentication credentials invalid)',
    );
    expect(error).toMatchObject({ kind: 'auth', status: 535, system: 'smtp' });
    expect(error.toAppError().code).toBe('UPSTREAM_AUTH_FAILED');
    expect(JSON.stringify([probe, error, error.message, logs.text()])).not.toContain('wrong-pass');
  });

  it('should fail STARTTLS against a self-signed certificate and suggest the fix', async () => {
    await start({ security: 'starttls' });

    const probe = await new MailAdapter(settings({ security: 'starttls' }), {}, quick).probe();

    expect(probe).toMatchObject({ ok: false, kind: 'tls' });
    expect(probe.message).toMatch(/^The mail server's TLS certificate is not trusted \(/);
    expect(probe.message).toMatch(/self[- ]signed certificate/);
    expect(probe.message).toContain('on a trusted LAN set SMTP_SECURITY to none');
  });

  it('should suggest starttls when tls mode meets a STARTTLS port', async () => {
    await start({ security: 'starttls' });

    const probe = await new MailAdapter(settings({ security: 'tls' }), {}, quick).probe();

    expect(probe).toMatchObject({ ok: false, kind: 'tls' });
    expect(probe.message).toMatch(/does not speak TLS from the first byte/);
    expect(probe.message).toContain('set SMTP_SECURITY to starttls');
  });

  it('should never upgrade in none mode, even when the server offers STARTTLS', async () => {
    await start({ security: 'starttls' });

    await new MailAdapter(settings({ security: 'none' }), {}, quick).send(message);

    expect((await smtp.waitForMessage()).secure).toBe(false);
  });

  it('should fail starttls mode on a server without STARTTLS, naming the fix', async () => {
    await start({ security: 'none' });

    const probe = await new MailAdapter(settings({ security: 'starttls' }), {}, quick).probe();

    expect(probe.ok).toBe(false);
    expect(probe.message).toMatch(/STARTTLS/);
    expect(probe.message).toContain('SMTP_SECURITY to none');
  });

  it('should treat a refused recipient as rejected, alone or among others', async () => {
    await start({ rejectRecipients: ['gone@example.org'] });
    const adapter = new MailAdapter(settings());

    const alone = await integrationError(adapter.send({ ...message, to: 'gone@example.org' }));
    const partial = await integrationError(
      adapter.send({ ...message, to: 'member@example.org, gone@example.org' }),
    );

    expect(alone).toMatchObject({ kind: 'rejected', status: 550 });
    expect(alone.message).toMatch(/^The mail server refused the message \(.*550/);
    expect(partial).toMatchObject({ kind: 'rejected' });
    expect(partial.message).toBe('The mail server refused gone@example.org');
    // The mail routes promise only 502/503: a refused recipient answers as unavailable, not as
    // a business refusal (422), still naming the system.
    expect(alone.toAppError()).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      details: { system: 'smtp' },
    });
  });

  it('should report a dead server as network and a silent one as timeout', async () => {
    await start();
    smtp.faults.slow(1500);
    const slow = await new MailAdapter(
      settings(),
      {},
      {
        timeouts: { greetingTimeout: 300 },
      },
    ).probe();
    await smtp.faults.clear();
    await smtp.faults.down();
    const down = await new MailAdapter(settings()).probe();

    expect(slow).toMatchObject({ ok: false, kind: 'timeout' });
    expect(slow.message).toBe(`The mail server at 127.0.0.1:${smtp.port} did not answer in time`);
    expect(down).toMatchObject({ ok: false, kind: 'network' });
    expect(down.message).toMatch(/is unreachable \(.*ECONNREFUSED/);
  });

  it('should map SMTP_SECURITY to nodemailer options with the spec timeouts', () => {
    const base = { host: 'mail', port: 587, username: '', password: '', from: 'a@b.c' };

    expect(transportOptions({ ...base, security: 'tls' })).toMatchObject({ secure: true });
    expect(transportOptions({ ...base, security: 'starttls' })).toMatchObject({
      secure: false,
      requireTLS: true,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    expect(transportOptions({ ...base, security: 'none' })).toMatchObject({
      secure: false,
      ignoreTLS: true,
    });
    expect(transportOptions({ ...base, security: 'none' })).not.toHaveProperty('auth');
    expect(
      transportOptions({ ...base, security: 'tls', username: 'u', password: 'p' }).auth,
    ).toEqual({ user: 'u', pass: 'p' });
    // Certificates are always verified: nothing turns rejectUnauthorized off.
    expect(transportOptions({ ...base, security: 'tls' })).not.toHaveProperty('tls');
  });

  it('should take the sender from an address username, and need host and sender', async () => {
    await start();
    const values = new MapSettings({
      SMTP_HOST: smtp.host,
      SMTP_PORT: smtp.port,
      SMTP_SECURITY: 'none',
      SMTP_USERNAME: 'mailer@example.org',
      SMTP_PASSWORD: '',
      SMTP_FROM: '',
    });
    const factory = new MailFactory(values);

    expect((await readMailSettings(values)).from).toBe('mailer@example.org');
    const first = await factory.get();
    expect(await factory.get()).toBe(first);
    values.values.SMTP_USERNAME = 'mailer';
    const missing = await integrationError(factory.get());
    values.values.SMTP_HOST = '';
    const noHost = await integrationError(factory.get());

    expect(missing).toMatchObject({ kind: 'not_configured', system: 'smtp' });
    expect(missing.message).toContain('SMTP_FROM');
    expect(noHost.message).toContain('SMTP_HOST');
  });
});
