import { accessLog } from '../../src/logger.js';
import { memoryLogger } from '../support/logs.js';

// The per-request line skips redaction (its fields are fixed and never secret; issue 21).
describe('access log', () => {
  const line = {
    requestId: 'r-1',
    method: 'GET',
    route: '/api/v1/me',
    status: 200,
    durationMs: 1.25,
    ip: '203.0.113.7',
  };

  it('should write one "request" line with the fixed fields and the service binding', () => {
    const logs = memoryLogger('info');
    accessLog(logs.logger)(line);
    expect(logs.lines()).toEqual([
      expect.objectContaining({ ...line, msg: 'request', level: 'info', service: 'usher-api' }),
    ]);
  });

  it('should follow the root level as the LOG_LEVEL setting changes it', () => {
    const logs = memoryLogger('info');
    const log = accessLog(logs.logger);
    logs.logger.level = 'warn';
    log(line);
    expect(logs.lines()).toHaveLength(0);
    logs.logger.level = 'debug';
    log(line);
    expect(logs.lines()).toHaveLength(1);
  });

  it('should leave redaction on for every other line', () => {
    const logs = memoryLogger('info');
    accessLog(logs.logger)(line);
    logs.logger.info({ password: 'hunter2', body: { token: 'abc.def.ghi' } }, 'other');
    expect(logs.text()).not.toContain('hunter2');
    expect(logs.text()).not.toContain('abc.def.ghi');
  });
});
