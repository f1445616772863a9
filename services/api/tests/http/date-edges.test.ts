import { errorBodySchema } from '@usher/contracts';
import { startHarness, type Harness } from '../requests/harness.js';
import { addDays, mondayOf, startOfZonedDay } from '../../src/time/zoned-day.js';
import { ENGINE } from '../support/database.js';

/**
 * Days and instants at the ends of what `YYYY-MM-DD` can write: a day + 1 past 9999-12-31 is year
 * 10000, and `Date.UTC` reads years 0–99 as 1900–1999. Every query parameter of a date or
 * date-time format, on every route, must answer them without a 5xx.
 */
const DAYS = ['9999-12-31', '9999-12-27', '9998-12-31', '0001-01-01', '0099-12-31', '0000-01-01'];
const INSTANTS = [
  '9999-12-31T23:59:59.999Z',
  '0001-01-01T00:00:00.000Z',
  '0000-01-01T00:00:00.000Z',
];

interface Parameter {
  name: string;
  in: string;
  schema?: { format?: string; anyOf?: { format?: string }[] };
}

describe(`date edges in query parameters (${ENGINE})`, () => {
  // Media server, TMDB and MoviePilot configured (fakes), so no route stops at NOT_CONFIGURED.
  let h: Harness;
  let token: string;

  beforeAll(async () => {
    h = await startHarness();
    token = (await h.admin()).token;
  });
  afterAll(() => h.close());

  it('should answer every date edge on every route with 2xx or 4xx, never 5xx', async () => {
    const doc = (await (await h.t.call('GET', '/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
    };
    const failures: string[] = [];
    let requests = 0;
    for (const [template, methods] of Object.entries(doc.paths)) {
      const op = methods.get;
      if (!op || template.includes('{')) continue;
      for (const p of op.parameters ?? []) {
        if (p.in !== 'query') continue;
        const formats = [p.schema?.format, ...(p.schema?.anyOf ?? []).map((a) => a.format)];
        const values = [
          ...(formats.includes('date') ? DAYS : []),
          ...(formats.includes('date-time') ? INSTANTS : []),
        ];
        for (const value of values) {
          requests++;
          const res = await h.t.call('GET', `${template}?${p.name}=${value}`, { token });
          const text = await res.text();
          if (res.status >= 500) failures.push(`${template}?${p.name}=${value}: ${res.status}`);
          else if (res.status >= 400) errorBodySchema.parse(JSON.parse(text));
        }
      }
    }
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(40);
  });

  it.each(DAYS)(
    'should answer a ranking preview, generation or job run of %s without a 5xx',
    async (day) => {
      const calls = [
        h.t.call('POST', '/api/v1/admin/rankings/preview', {
          token,
          body: { period: 'week', date: day },
        }),
        h.t.call('POST', '/api/v1/admin/rankings/preview', {
          token,
          body: { period: 'month', date: day },
        }),
        h.t.call('POST', '/api/v1/admin/jobs/ranking_weekly/run', {
          token,
          body: { params: { date: day } },
        }),
      ];
      for (const res of await Promise.all(calls)) {
        const text = await res.text();
        expect([res.status < 500, text.slice(0, 200)]).toEqual([true, text.slice(0, 200)]);
      }
    },
  );
});

describe(`date edges in bodies (${ENGINE})`, () => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await startHarness();
    token = (await h.admin()).token;
  });
  afterAll(() => h.close());

  it.each([
    ['/api/v1/admin/users', { username: 'edge0000', expiresAt: '0000-01-01T00:00:00.000Z' }],
    ['/api/v1/admin/users', { username: 'edge9999', expiresAt: '9999-12-31T23:59:59.999Z' }],
    ['/api/v1/admin/redeem-codes', { days: 1, expiresAt: '9999-12-31T23:59:59.999Z' }],
  ])(
    'should refuse %s with an instant outside 0001–9998 (400), creating nothing',
    async (path, body) => {
      const res = await h.t.call('POST', path, { token, body });

      expect(res.status).toBe(400);
      expect(errorBodySchema.parse(await res.json()).error).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: [
          { path: 'expiresAt', message: 'must be an instant from 0001-01-01 to 9998-12-31' },
        ],
      });
    },
  );
});

describe('calendar-day arithmetic at the ends of the year range', () => {
  it('should keep years below 100 as written (Date.UTC would read 0001 as 1901)', () => {
    expect(addDays('0001-01-01', 0)).toBe('0001-01-01');
    expect(addDays('0001-01-01', -1)).toBe('0000-12-31');
    expect(addDays('0099-12-31', 1)).toBe('0100-01-01');
    // 0001-01-01 is a Monday in the proleptic Gregorian calendar; 0001-01-07 a Sunday.
    expect(mondayOf('0001-01-07')).toBe('0001-01-01');
    expect(startOfZonedDay('0050-06-15', 'UTC').toISOString()).toBe('0050-06-15T00:00:00.000Z');
    expect(addDays('9998-12-31', 7)).toBe('9999-01-07');
  });
});
