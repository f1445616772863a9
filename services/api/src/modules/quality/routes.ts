import {
  paginationQuerySchema,
  qualityGroupDetailSchema,
  qualityGroupParamsSchema,
  qualityLibraryListSchema,
  qualityLibraryParamsSchema,
  qualityReportSchema,
  qualityScanStartedSchema,
} from '@usher/contracts';
import { defineRoute, type RouteDef, UPSTREAM_ERRORS } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { listQualityLibraries, qualityGroup, qualityReport, startScan } from './service.js';

/** 20-api.md §6 media quality. */
export function qualityRoutes(ctx: ModuleContext): RouteDef[] {
  const tags = ['media-quality'];
  const base = '/api/v1/admin/media-quality/libraries';
  return [
    defineRoute({
      method: 'get',
      path: base,
      auth: 'admin',
      summary: 'Video libraries with the state of their quality report and whether a scan runs',
      tags,
      responses: { 200: { description: 'Libraries', schema: qualityLibraryListSchema } },
      errors: UPSTREAM_ERRORS,
      handler: async (c) => c.json(await listQualityLibraries(ctx)),
    }),
    defineRoute({
      method: 'get',
      path: `${base}/:libraryId`,
      auth: 'admin',
      summary: 'Quality report of a library or `all`; low-quality groups paged',
      tags,
      request: { params: qualityLibraryParamsSchema, query: paginationQuerySchema },
      responses: { 200: { description: 'Report', schema: qualityReportSchema } },
      errors: ['LIBRARY_NOT_FOUND', ...UPSTREAM_ERRORS],
      handler: async (c, { params, query }) =>
        c.json(await qualityReport(ctx, params.libraryId, query)),
    }),
    defineRoute({
      method: 'post',
      path: `${base}/:libraryId/scan`,
      auth: 'admin',
      summary: 'Starts the media_quality_scan job; poll the run for progress',
      tags,
      request: { params: qualityLibraryParamsSchema },
      responses: { 202: { description: 'Started', schema: qualityScanStartedSchema } },
      errors: ['LIBRARY_NOT_FOUND', 'SCAN_IN_PROGRESS', ...UPSTREAM_ERRORS],
      handler: async (c, { params, ...caller }) =>
        c.json(await startScan(ctx, params.libraryId, caller), 202),
    }),
    defineRoute({
      method: 'get',
      path: `${base}/:libraryId/groups/:groupId`,
      auth: 'admin',
      summary: 'The items of one low-quality movie or series (episodes by season)',
      tags,
      request: { params: qualityGroupParamsSchema },
      responses: { 200: { description: 'Group', schema: qualityGroupDetailSchema } },
      errors: ['QUALITY_GROUP_NOT_FOUND'],
      handler: async (c, { params }) =>
        c.json(await qualityGroup(ctx, params.libraryId, params.groupId)),
    }),
  ];
}
