import {
  rankingBatchParamsSchema,
  rankingBatchSchema,
  rankingGenerateBodySchema,
  rankingHistoryPageSchema,
  rankingHistoryQuerySchema,
  rankingLatestQuerySchema,
  rankingLatestSchema,
  rankingPreviewBodySchema,
} from '@usher/contracts';
import { defineRoute, type RouteDef, UPSTREAM_ERRORS } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { PosterSigner } from '../media/index.js';
import {
  generateRanking,
  latestRanking,
  previewRanking,
  rankingById,
  rankingHistory,
} from './service.js';

/** 20-api.md "Rankings" and `/admin/rankings/*`. */
export function rankingRoutes(ctx: ModuleContext): RouteDef[] {
  const signer = new PosterSigner(ctx.config.JWT_SECRET);
  // Poster URLs signed for the caller at their session version (PosterSigner).
  const reader = (auth: { userId: string; tokenVersion: number }) => ({
    signer,
    user: { id: auth.userId, tokenVersion: auth.tokenVersion },
  });
  const tags = ['rankings'];
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/rankings/latest',
      auth: 'user',
      summary: 'The ranking of the most recent period, with poster URLs signed for the caller',
      tags,
      request: { query: rankingLatestQuerySchema },
      responses: { 200: { description: 'Latest batch or null', schema: rankingLatestSchema } },
      handler: async (c, { query, auth }) =>
        c.json(await latestRanking(ctx, reader(auth), query.period)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/rankings/history',
      auth: 'user',
      summary: 'Stored batches of a period kind, newest period first (no entries)',
      tags,
      request: { query: rankingHistoryQuerySchema },
      responses: { 200: { description: 'Batches', schema: rankingHistoryPageSchema } },
      handler: async (c, { query }) => c.json(await rankingHistory(ctx, query)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/rankings/:batchId',
      auth: 'user',
      summary: 'One stored batch with its entries',
      tags,
      request: { params: rankingBatchParamsSchema },
      responses: { 200: { description: 'Batch', schema: rankingBatchSchema } },
      errors: ['RANKING_NOT_FOUND'],
      handler: async (c, { params, auth }) =>
        c.json(await rankingById(ctx, reader(auth), params.batchId)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/rankings/preview',
      auth: 'admin',
      summary: 'Computes the period containing `date` (default today): not stored, not pushed',
      tags,
      request: { body: rankingPreviewBodySchema },
      responses: { 200: { description: 'Batch with id null', schema: rankingBatchSchema } },
      errors: UPSTREAM_ERRORS,
      handler: async (c, { body, auth }) => c.json(await previewRanking(ctx, reader(auth), body)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/admin/rankings/generate',
      auth: 'admin',
      summary: 'Computes and stores the period (replacing its batch); pushes it unless push:false',
      tags,
      request: { body: rankingGenerateBodySchema },
      responses: { 201: { description: 'Stored batch', schema: rankingBatchSchema } },
      errors: UPSTREAM_ERRORS,
      handler: async (c, { body, auth, ...caller }) =>
        c.json(await generateRanking(ctx, reader(auth), body, { auth, ...caller }), 201),
    }),
  ];
}
