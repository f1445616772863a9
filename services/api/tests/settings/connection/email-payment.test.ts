import { startFakeSmtp, startFakeStripe, type FakeSmtp, type FakeStripe } from '@usher/testkit';
import { STRIPE_API_VERSION } from '../../../src/integrations/payments/client.js';
import { ENGINE } from '../../support/database.js';
import { check, connectionHarness, type ConnectionHarness } from './helpers.js';

const SMTP_PASS = 'mail-s3cret-pass';
const WEB = 'https://media.example.org';

describe(`connection test: email and payment (${ENGINE})`, () => {
  let smtp: FakeSmtp;
  let selfSigned: FakeSmtp;
  let stripe: FakeStripe;
  let h: ConnectionHarness;

  beforeAll(async () => {
    smtp = await startFakeSmtp({
      auth: { user: 'mailer', pass: SMTP_PASS },
      rejectRecipients: ['gone@example.org'],
    });
    selfSigned = await startFakeSmtp({ security: 'starttls' });
    stripe = await startFakeStripe();
    h = await connectionHarness({
      SITE_NAME: 'Cinema Club',
      SMTP_HOST: smtp.host,
      SMTP_PORT: String(smtp.port),
      SMTP_SECURITY: 'none',
      SMTP_USERNAME: 'mailer',
      SMTP_PASSWORD: SMTP_PASS,
      SMTP_FROM: 'Usher <no-reply@usher.example>',
      PUBLIC_WEB_URL: WEB,
      STRIPE_API_BASE: stripe.url,
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    });
  });
  afterAll(async () => {
    await h.close();
    await Promise.all([smtp.close(), selfSigned.close(), stripe.close()]);
  });

  describe('email', () => {
    it('should connect and log in, and send a test message when asked', async () => {
      const plain = await h.test('email');
      const sent = await h.test('email', { to: 'admin@example.org' });

      expect(plain.checks).toEqual([
        {
          target: 'smtp',
          status: 'ok',
          message: `Connected to 127.0.0.1:${smtp.port} (no TLS), login accepted for mailer`,
          latencyMs: expect.any(Number),
        },
      ]);
      expect(sent.ok).toBe(true);
      expect(check(sent, 'test_message').message).toMatch(
        /^Accepted for admin@example\.org \(250 Ok: queued as \d+\)$/,
      );
      const mail = smtp.lastMessageTo('admin@example.org')!;
      expect(mail.subject).toBe('Cinema Club: test message');
      expect(mail.from).toEqual([{ name: 'Usher', address: 'no-reply@usher.example' }]);
    });

    it('should fail a refused login with the SMTP reply code, and not send', async () => {
      const wrong = 'wrong-mail-password';
      const before = smtp.messages.length;

      const res = await h.test('email', {
        values: { SMTP_PASSWORD: wrong },
        to: 'admin@example.org',
      });

      expect(res.ok).toBe(false);
      expect(check(res, 'smtp')).toMatchObject({
        status: 'fail',
        message: 'The mail server refused the login (535 Authentication credentials invalid)',
      });
      expect(check(res, 'test_message')).toMatchObject({
        status: 'fail',
        message: 'Not sent: the connection test failed',
      });
      expect(smtp.messages).toHaveLength(before);
      expect(JSON.stringify(res)).not.toContain(wrong);
    });

    it('should fail STARTTLS with a self-signed cert and suggest the mode', async () => {
      const res = await h.test('email', {
        values: {
          SMTP_PORT: selfSigned.port,
          SMTP_SECURITY: 'starttls',
          SMTP_PASSWORD: SMTP_PASS,
        },
      });

      const smtpCheck = check(res, 'smtp');
      expect(smtpCheck.status).toBe('fail');
      expect(smtpCheck.message).toMatch(/^The mail server's TLS certificate is not trusted/);
      expect(smtpCheck.message).toContain('on a trusted LAN set SMTP_SECURITY to none');
    });

    it('should report a refused recipient on the test message', async () => {
      const res = await h.test('email', { to: 'gone@example.org' });

      expect(check(res, 'smtp').status).toBe('ok');
      expect(check(res, 'test_message')).toMatchObject({
        status: 'fail',
        message: expect.stringMatching(/^The mail server refused the message \(550 /),
      });
      expect(res.ok).toBe(false);
    });

    it('should fail when the mail server is down', async () => {
      await smtp.faults.down();
      try {
        const res = await h.test('email');

        expect(check(res, 'smtp')).toMatchObject({
          status: 'fail',
          message: expect.stringMatching(/is unreachable \(.*ECONNREFUSED/),
        });
      } finally {
        await smtp.faults.up();
      }
    });

    it('should refuse a malformed test address (400)', async () => {
      const body = await h.testError('email', { to: 'not-an-address' }, 400);

      expect(body.error.code).toBe('VALIDATION_FAILED');
    });
  });

  describe('payment', () => {
    it('should pass the key, the webhook secret and the return URLs', async () => {
      const res = await h.test('payment');

      expect(res.ok).toBe(true);
      expect(res.checks.map((c) => c.target)).toEqual(['stripe', 'webhook_secret', 'return_urls']);
      expect(check(res, 'stripe').message).toBe(
        `Stripe accepted the key (test mode) via STRIPE_API_BASE ${stripe.url}`,
      );
      expect(check(res, 'webhook_secret').message).toBe(
        'Signing secret set; the Stripe webhook endpoint must use API version ' +
          STRIPE_API_VERSION,
      );
      expect(check(res, 'return_urls').message).toBe(
        `success ${WEB}/console/renewal?checkout=success&session_id={CHECKOUT_SESSION_ID}; ` +
          `cancel ${WEB}/console/renewal?checkout=cancelled`,
      );
      expect(stripe.requests.at(-1)).toMatchObject({
        path: '/v1/checkout/sessions',
        query: { limit: '1' },
      });
      expect(JSON.stringify(res)).not.toContain(stripe.webhookSecret);
    });

    it('should fail a refused secret key (401) without echoing it', async () => {
      const wrong = 'sk_test_notTheRightKey0000001234';

      const res = await h.test('payment', { values: { STRIPE_SECRET_KEY: wrong } });

      expect(check(res, 'stripe')).toMatchObject({
        status: 'fail',
        message: `Stripe refused the secret key (401) via STRIPE_API_BASE ${stripe.url}`,
      });
      expect(JSON.stringify(res)).not.toContain(wrong);
      expect(JSON.stringify(res)).not.toContain('1234');
    });

    it('should warn about http:// return URLs outside localhost', async () => {
      const remote = await h.test('payment', {
        values: { STRIPE_SUCCESS_URL: 'http://media.example.org/paid' },
      });
      const local = await h.test('payment', {
        values: { STRIPE_CANCEL_URL: 'http://localhost:4200/cancelled' },
      });

      expect(check(remote, 'return_urls')).toMatchObject({
        status: 'warn',
        message: expect.stringMatching(/^The success URL uses http:\/\/ outside localhost/),
      });
      expect(remote.ok).toBe(true);
      expect(check(local, 'return_urls').status).toBe('ok');
    });

    it('should fail when Stripe is unreachable', async () => {
      await stripe.faults.down();
      try {
        const res = await h.test('payment');

        expect(check(res, 'stripe')).toMatchObject({
          status: 'fail',
          message: `Stripe is unreachable via STRIPE_API_BASE ${stripe.url}`,
        });
      } finally {
        await stripe.faults.up();
      }
    });
  });
});
