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
import { type RouteDef, UPSTREAM_ERRORS, routeGroup } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { PosterSigner } from '../media/index.js';
import {
  generateRanking,
  latestRanking,
  previewRanking,
  rankingById,
  rankingHistory,
} from './service.js';

const api = routeGroup('rankings');

/** 20-api.md "Rankings" and `/admin/rankings/*`. */
export function rankingRoutes(ctx: ModuleContext): RouteDef[] {
  const signer = new PosterSigner(ctx.config.JWT_SECRET);
  // Poster URLs signed for the caller at their session version (PosterSigner).
  const reader = (auth: { userId: string; tokenVersion: number }) => ({
    signer,
    user: { id: auth.userId, tokenVersion: auth.tokenVersion },
  });
  return [
    api.user.get('/api/v1/rankings/latest', {
      summary: 'The ranking of the most recent period, with poster URLs signed for the caller',
      request: { query: rankingLatestQuerySchema },
      responses: { 200: { description: 'Latest batch or null', schema: rankingLatestSchema } },
      json: ({ query, auth }) => latestRanking(ctx, reader(auth), query.period),
    }),
    api.user.get('/api/v1/rankings/history', {
      summary: 'Stored batches of a period kind, newest period first (no entries)',
      request: { query: rankingHistoryQuerySchema },
      responses: { 200: { description: 'Batches', schema: rankingHistoryPageSchema } },
      json: ({ query }) => rankingHistory(ctx, query),
    }),
    api.user.get('/api/v1/rankings/:batchId', {
      summary: 'One stored batch with its entries',
      request: { params: rankingBatchParamsSchema },
      responses: { 200: { description: 'Batch', schema: rankingBatchSchema } },
      errors: ['RANKING_NOT_FOUND'],
      json: ({ params, auth }) => rankingById(ctx, reader(auth), params.batchId),
    }),
    api.admin.post('/api/v1/admin/rankings/preview', {
      summary: 'Computes the period containing `date` (default today): not stored, not pushed',
      request: { body: rankingPreviewBodySchema },
      responses: { 200: { description: 'Batch with id null', schema: rankingBatchSchema } },
      errors: UPSTREAM_ERRORS,
      json: ({ body, auth }) => previewRanking(ctx, reader(auth), body),
    }),
    api.admin.post('/api/v1/admin/rankings/generate', {
      summary: 'Computes and stores the period (replacing its batch); pushes it unless push:false',
      request: { body: rankingGenerateBodySchema },
      responses: { 201: { description: 'Stored batch', schema: rankingBatchSchema } },
      errors: UPSTREAM_ERRORS,
      handler: async (c, { body, auth, ...caller }) =>
        c.json(await generateRanking(ctx, reader(auth), body, { auth, ...caller }), 201),
    }),
  ];
}
