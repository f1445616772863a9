import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import {
  FAKE_SMTP_CERT,
  startFakeSmtp,
  type FakeSmtp,
  type FakeSmtpOptions,
} from '../../src/smtp/index.js';

type TransportOptions = SMTPTransport.Options;
type MailError = Error & { code?: string; responseCode?: number; response?: string };

const code = {
  from: 'Usher <no-reply@usher.example>',
  to: 'member@example.org',
  subject: 'Votre code de vérification: 123456',
  text: 'Your code is 123456.\nIt expires in 10 minutes.',
  html: '<p>Your code is <b>123456</b>. Café ☕</p>',
};

describe('fake SMTP server with nodemailer', () => {
  let smtp: FakeSmtp;

  const start = async (options: FakeSmtpOptions = {}) => {
    smtp = await startFakeSmtp(options);
    return smtp;
  };
  // Usher's `none` mode (spec 50 §7), plus the shared timeouts; tests override what they probe.
  const transport = (extra: TransportOptions = {}) =>
    nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: false,
      ignoreTLS: true,
      connectionTimeout: 2000,
      greetingTimeout: 2000,
      socketTimeout: 5000,
      ...extra,
    });
  const sendFails = (extra: TransportOptions, mail = code) =>
    transport(extra)
      .sendMail(mail)
      .then(
        () => null,
        (e: MailError) => e,
      );

  afterEach(() => smtp.close());

  it('should capture envelope, decoded subject, text and HTML of a message', async () => {
    await start();

    const info = await transport().sendMail(code);
    const mail = await smtp.waitForMessage();

    expect(info.accepted).toEqual(['member@example.org']);
    expect(info.response).toMatch(/^250 /);
    expect(mail.envelope).toEqual({ from: 'no-reply@usher.example', to: ['member@example.org'] });
    expect(mail.from).toEqual([{ name: 'Usher', address: 'no-reply@usher.example' }]);
    expect(mail.subject).toBe('Votre code de vérification: 123456');
    expect(mail.text).toBe('Your code is 123456.\nIt expires in 10 minutes.');
    expect(mail.html).toBe('<p>Your code is <b>123456</b>. Café ☕</p>');
    expect(mail.messageId).toBe(info.messageId);
    expect(smtp.lastMessageTo('MEMBER@example.org')).toBe(mail);
  });

  it('should accept the configured credentials with AUTH PLAIN and LOGIN', async () => {
    await start({ auth: { user: 'mailer', pass: 's3cret' } });

    await transport({ auth: { user: 'mailer', pass: 's3cret' }, authMethod: 'PLAIN' }).sendMail(
      code,
    );
    await transport({ auth: { user: 'mailer', pass: 's3cret' }, authMethod: 'LOGIN' }).sendMail(
      code,
    );

    expect(smtp.logins).toEqual([
      { user: 'mailer', method: 'PLAIN', ok: true },
      { user: 'mailer', method: 'LOGIN', ok: true },
    ]);
    expect(smtp.messages.map((m) => m.authUser)).toEqual(['mailer', 'mailer']);
  });

  it('should refuse wrong credentials with 535 (EAUTH)', async () => {
    await start({ auth: { user: 'mailer', pass: 's3cret' } });

    const error = await sendFails({ auth: { user: 'mailer', pass: 'wrong' } });

    expect(error).toEqual(expect.objectContaining({ code: 'EAUTH', responseCode: 535 }));
    expect(smtp.messages).toEqual([]);
  });

  it('should answer 530 to MAIL FROM before AUTH when auth is required', async () => {
    await start({ auth: { user: 'mailer', pass: 's3cret' } });

    const error = await sendFails({});

    expect(error?.responseCode).toBe(530);
    expect(error?.response).toMatch(/authentication Required/i);
  });

  it("should reproduce smtp-server's 538 for plain AUTH while STARTTLS is offered", async () => {
    await start({ security: 'starttls', auth: { user: 'u', pass: 'p' }, allowInsecureAuth: false });

    const error = await sendFails({ auth: { user: 'u', pass: 'p' } });

    expect(error).toEqual(expect.objectContaining({ code: 'EAUTH', responseCode: 538 }));
  });

  it("should refuse every login with smtp-server's default onAuth", async () => {
    await start({ defaultOnAuth: true });

    const error = await sendFails({ auth: { user: 'anyone', pass: 'anything' } });

    expect(error).toEqual(expect.objectContaining({ code: 'EAUTH', responseCode: 535 }));
  });

  it('should list a refused recipient in rejected and fail when all are refused', async () => {
    await start({ rejectRecipients: ['gone@example.org'] });

    const partial = await transport().sendMail({
      ...code,
      to: ['member@example.org', 'gone@example.org'],
    });
    const error = await sendFails({}, { ...code, to: 'gone@example.org' });

    expect(partial.accepted).toEqual(['member@example.org']);
    expect(partial.rejected).toEqual(['gone@example.org']);
    expect(error).toEqual(expect.objectContaining({ code: 'EENVELOPE', responseCode: 550 }));
  });

  it('should fail MAIL FROM with 451 while the fail switch is on', async () => {
    await start();
    smtp.faults.fail();

    const error = await sendFails({});
    await smtp.faults.clear();
    const after = await transport().sendMail(code);

    expect(error).toEqual(expect.objectContaining({ code: 'EENVELOPE', responseCode: 451 }));
    expect(after.accepted).toHaveLength(1);
  });

  it('should see nodemailer upgrade to STARTTLS itself and reject a self-signed cert', async () => {
    await start({ security: 'starttls' });

    const strict = await sendFails({ ignoreTLS: false });
    const trusted = await transport({ ignoreTLS: false, tls: { ca: FAKE_SMTP_CERT } }).sendMail(
      code,
    );

    expect(strict?.code).toBe('ESOCKET');
    expect(strict?.message).toMatch(/self[- ]signed certificate/);
    expect(trusted.accepted).toHaveLength(1);
    expect(smtp.messages[0]!.secure).toBe(true);
  });

  it('should speak TLS at once in tls mode, and break secure:true on a STARTTLS port', async () => {
    await start({ security: 'tls' });
    const tlsInfo = await transport({ secure: true, tls: { rejectUnauthorized: false } }).sendMail(
      code,
    );
    await smtp.close();
    await start({ security: 'starttls' });

    const mismatch = await sendFails({ secure: true, tls: { rejectUnauthorized: false } });

    expect(tlsInfo.accepted).toHaveLength(1);
    expect(mismatch?.message).toMatch(/wrong version number/);
  });

  it('should refuse connections while down and verify() again once up', async () => {
    await start();
    await smtp.faults.down();

    const down = await transport()
      .verify()
      .catch((e: MailError) => e);
    await smtp.faults.up();
    const up = await transport().verify();

    expect(down).toEqual(expect.objectContaining({ code: 'ESOCKET' }));
    expect((down as MailError).message).toMatch(/ECONNREFUSED/);
    expect(up).toBe(true);
  });

  it('should delay the greeting while slow so greetingTimeout fires', async () => {
    await start();
    smtp.faults.slow(1500);

    const error = await sendFails({ greetingTimeout: 300 });

    expect(error?.code).toBe('ETIMEDOUT');
  });
});
