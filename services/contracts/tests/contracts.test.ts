import {
  ERROR_CODES,
  ERROR_STATUS,
  errorBodySchema,
  pageOf,
  paginationQuerySchema,
  userSchema,
  createRequestBodySchema,
  metadataResultSchema,
  TITLE_AVAILABILITIES,
} from '../src/index.js';
import { z } from 'zod';

describe('error codes', () => {
  it('should be UPPER_SNAKE and map to an HTTP error status', () => {
    for (const code of ERROR_CODES) {
      expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
      expect(ERROR_STATUS[code]).toBeGreaterThanOrEqual(400);
      expect(ERROR_STATUS[code]).toBeLessThan(600);
    }
  });

  it('should keep the generic statuses of 20-api.md §1.5', () => {
    expect(ERROR_STATUS).toMatchObject({
      VALIDATION_FAILED: 400,
      UNAUTHENTICATED: 401,
      TOKEN_REVOKED: 401,
      INTERNAL_AUTH_FAILED: 401,
      FORBIDDEN: 403,
      PASSWORD_CHANGE_REQUIRED: 403,
      NOT_FOUND: 404,
      RATE_LIMITED: 429,
      INTERNAL_ERROR: 500,
      UPSTREAM_UNAVAILABLE: 502,
      NOT_CONFIGURED: 503,
    });
  });
});

describe('error body', () => {
  it('should accept the shared shape and reject unknown codes', () => {
    const body = { error: { code: 'NOT_FOUND', message: 'x', requestId: 'r1' } };
    expect(errorBodySchema.parse(body)).toEqual(body);
    expect(
      errorBodySchema.safeParse({ error: { code: 'NOPE', message: 'x', requestId: 'r' } }).success,
    ).toBe(false);
  });
});

describe('pagination', () => {
  it('should default to page 1 of 20 and refuse pageSize above 100 or unknown keys', () => {
    expect(paginationQuerySchema.parse({})).toEqual({ page: 1, pageSize: 20 });
    expect(paginationQuerySchema.parse({ page: '3', pageSize: '100' })).toEqual({
      page: 3,
      pageSize: 100,
    });
    expect(paginationQuerySchema.safeParse({ pageSize: '101' }).success).toBe(false);
    expect(paginationQuerySchema.safeParse({ page: '0' }).success).toBe(false);
    expect(paginationQuerySchema.safeParse({ sort: 'x' }).success).toBe(false);
  });

  it('should build list replies with data, total, page and pageSize', () => {
    const list = pageOf(z.object({ id: z.string() }));
    expect(list.safeParse({ data: [{ id: 'a' }], total: 1, page: 1, pageSize: 20 }).success).toBe(
      true,
    );
    expect(list.safeParse({ data: [{ id: 1 }], total: 1, page: 1, pageSize: 20 }).success).toBe(
      false,
    );
  });
});

describe('user', () => {
  it('should require ISO instants with milliseconds and a known media state', () => {
    const user = {
      id: '01937a4e-8c5b-7cc1-9a56-6a0b2f2b3c4d',
      username: 'alice',
      email: null,
      role: 'user',
      isActive: true,
      mustChangePassword: false,
      expiresAt: '2026-05-01T10:00:00.000Z',
      isExpired: false,
      registeredVia: 'open',
      locale: null,
      lastLoginAt: null,
      createdAt: '2026-04-01T10:00:00.000Z',
      media: { linked: false, mediaUserId: null, state: 'unlinked' },
      messenger: { bound: false, messengerId: null, boundAt: null },
    };
    expect(userSchema.safeParse(user).success).toBe(true);
    expect(userSchema.safeParse({ ...user, expiresAt: '2026-05-01T10:00:00Z' }).success).toBe(
      false,
    );
    expect(userSchema.safeParse({ ...user, media: { ...user.media, state: 'gone' } }).success).toBe(
      false,
    );
  });
});

describe('metadata result availability and backdrops (issue 14)', () => {
  const spec = {
    tmdbId: 603,
    mediaType: 'movie',
    title: 'The Matrix',
    originalTitle: 'The Matrix',
    year: 1999,
    overview: '',
    posterPath: '/p.jpg',
    voteAverage: 8.2,
  };

  it("should still parse the spec's shape, without backdrop or availability", () => {
    expect(metadataResultSchema.parse(spec)).toEqual(spec);
  });

  it('should accept a known state with the own request id or null, and nothing else', () => {
    const own = { state: 'requested', ownRequestId: '0190f3a2-7c4e-7b2a-9c1d-1234567890ab' };
    expect(metadataResultSchema.parse({ ...spec, availability: own }).availability).toEqual(own);
    for (const state of TITLE_AVAILABILITIES) {
      expect(
        metadataResultSchema.safeParse({ ...spec, availability: { state, ownRequestId: null } })
          .success,
      ).toBe(true);
    }
    for (const bad of [
      { state: 'downloading', ownRequestId: null },
      { state: 'requested' },
      { state: 'requested', ownRequestId: 'not-a-uuid' },
    ]) {
      expect(metadataResultSchema.safeParse({ ...spec, availability: bad }).success).toBe(false);
    }
  });

  it('should take a backdrop path on create like the poster path, and refuse a URL', () => {
    const body = { type: 'MOVIE', tmdbId: 603, season: 0, name: 'The Matrix' };
    expect(createRequestBodySchema.safeParse({ ...body, backdropPath: '/b-603.jpg' }).success).toBe(
      true,
    );
    expect(createRequestBodySchema.safeParse({ ...body, backdropPath: null }).success).toBe(true);
    expect(
      createRequestBodySchema.safeParse({ ...body, backdropPath: 'https://x.example/b.jpg' })
        .success,
    ).toBe(false);
  });
});
