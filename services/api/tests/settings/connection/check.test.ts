import { IntegrationError } from '../../../src/integrations/errors.js';
import { ok, runCheck } from '../../../src/modules/settings/connection/check.js';

describe('runCheck', () => {
  it('should time a passing check', async () => {
    const result = await runCheck('tmdb', 1000, async () => ok('fine'));

    expect(result).toEqual({
      target: 'tmdb',
      status: 'ok',
      message: 'fine',
      latencyMs: expect.any(Number),
    });
  });

  it('should fail a check still running at its bound', async () => {
    const started = Date.now();

    const result = await runCheck('bot', 200, () => new Promise(() => undefined));

    expect(result).toMatchObject({ status: 'fail', message: 'No answer within 0.2 s' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(result.latencyMs).toBeGreaterThanOrEqual(190);
  });

  it('should turn an IntegrationError into a failed check and let bugs through', async () => {
    const failed = await runCheck('smtp', 1000, async () => {
      throw new IntegrationError(
        'smtp',
        'probe',
        'not_configured',
        'Not configured: set SMTP_HOST',
      );
    });
    const bug = runCheck('smtp', 1000, async () => {
      throw new TypeError('boom');
    });

    expect(failed).toMatchObject({ status: 'fail', message: 'Not configured: set SMTP_HOST' });
    await expect(bug).rejects.toThrow(TypeError);
  });
});
