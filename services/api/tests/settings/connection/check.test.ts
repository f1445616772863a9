import { IntegrationError } from '../../../src/integrations/errors.js';
import { ok, runCheck, TestDeadline } from '../../../src/modules/settings/connection/check.js';

describe('runCheck', () => {
  // A whole-test deadline far away, so each check's own bound is what these cases exercise.
  let deadline: TestDeadline;
  beforeEach(() => {
    deadline = new TestDeadline(60_000);
  });
  afterEach(() => deadline.dispose());

  it('should time a passing check', async () => {
    const result = await runCheck('tmdb', { timeoutMs: 1000, deadline }, async () => ok('fine'));

    expect(result).toEqual({
      target: 'tmdb',
      status: 'ok',
      message: 'fine',
      latencyMs: expect.any(Number),
    });
  });

  it('should fail a check still running at its bound', async () => {
    const started = Date.now();

    const result = await runCheck(
      'bot',
      { timeoutMs: 200, deadline },
      () => new Promise(() => undefined),
    );

    expect(result).toMatchObject({ status: 'fail', message: 'No answer within 0.2 s' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(result.latencyMs).toBeGreaterThanOrEqual(190);
  });

  it('should turn an IntegrationError into a failed check and let bugs through', async () => {
    const failed = await runCheck('smtp', { timeoutMs: 1000, deadline }, async () => {
      throw new IntegrationError(
        'smtp',
        'probe',
        'not_configured',
        'Not configured: set SMTP_HOST',
      );
    });
    const bug = runCheck('smtp', { timeoutMs: 1000, deadline }, async () => {
      throw new TypeError('boom');
    });

    expect(failed).toMatchObject({ status: 'fail', message: 'Not configured: set SMTP_HOST' });
    await expect(bug).rejects.toThrow(TypeError);
  });
});
