import {
  paginationQuerySchema,
  qualityGroupDetailSchema,
  qualityGroupParamsSchema,
  qualityLibraryListSchema,
  qualityLibraryParamsSchema,
  qualityReportSchema,
  qualityScanStartedSchema,
} from '@usher/contracts';
import { type RouteDef, UPSTREAM_ERRORS, routeGroup } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { listQualityLibraries, qualityGroup, qualityReport, startScan } from './service.js';

const api = routeGroup('media-quality');

/** 20-api.md §6 media quality. */
export function qualityRoutes(ctx: ModuleContext): RouteDef[] {
  const base = '/api/v1/admin/media-quality/libraries';
  return [
    api.admin.get(base, {
      summary: 'Video libraries with the state of their quality report and whether a scan runs',
      responses: { 200: { description: 'Libraries', schema: qualityLibraryListSchema } },
      errors: UPSTREAM_ERRORS,
      json: () => listQualityLibraries(ctx),
    }),
    api.admin.get(`${base}/:libraryId`, {
      summary: 'Quality report of a library or `all`; low-quality groups paged',
      request: { params: qualityLibraryParamsSchema, query: paginationQuerySchema },
      responses: { 200: { description: 'Report', schema: qualityReportSchema } },
      errors: ['LIBRARY_NOT_FOUND', ...UPSTREAM_ERRORS],
      json: ({ params, query }) => qualityReport(ctx, params.libraryId, query),
    }),
    api.admin.post(`${base}/:libraryId/scan`, {
      summary: 'Starts the media_quality_scan job; poll the run for progress',
      request: { params: qualityLibraryParamsSchema },
      responses: { 202: { description: 'Started', schema: qualityScanStartedSchema } },
      errors: ['LIBRARY_NOT_FOUND', 'SCAN_IN_PROGRESS', ...UPSTREAM_ERRORS],
      handler: async (c, { params, ...caller }) =>
        c.json(await startScan(ctx, params.libraryId, caller), 202),
    }),
    api.admin.get(`${base}/:libraryId/groups/:groupId`, {
      summary: 'The items of one low-quality movie or series (episodes by season)',
      request: { params: qualityGroupParamsSchema },
      responses: { 200: { description: 'Group', schema: qualityGroupDetailSchema } },
      errors: ['QUALITY_GROUP_NOT_FOUND'],
      json: ({ params }) => qualityGroup(ctx, params.libraryId, params.groupId),
    }),
  ];
}
