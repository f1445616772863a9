import {
  adminDashboardSchema,
  adminUserSchema,
  healthDownSchema,
  healthOkSchema,
  systemInfoSchema,
} from '@usher/contracts';
import { z } from 'zod';
import { buildOpenApiDocument, renderDocsPage } from '../../http/openapi.js';
import { defineRoute, type RouteDef } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { adminDashboard } from './dashboard.js';
import { systemInfo } from './info.js';
import { signedInUser } from '../auth/index.js';
import { toAdminUser } from '../users/index.js';

/**
 * Root routes (health, metrics), the API description, the admin's own record and the internal
 * reachability check the bot uses. `allRoutes` is read lazily so the document covers every module.
 */
export function systemRoutes(ctx: ModuleContext, allRoutes: () => RouteDef[]): RouteDef[] {
  let document: Record<string, unknown> | undefined;
  const openApi = () => (document ??= buildOpenApiDocument(allRoutes(), ctx.config.version));
  return [
    defineRoute({
      method: 'get',
      path: '/health',
      auth: 'public',
      summary: 'Liveness plus a database check (select 1, 2 s timeout)',
      tags: ['system'],
      responses: {
        200: { description: 'Up, database answers', schema: healthOkSchema },
        503: { description: 'Database unreachable', schema: healthDownSchema },
      },
      handler: async (c) => {
        try {
          await ctx.database.ping(2000);
        } catch (err) {
          // The outage is the answer, not an error of this request; log it for the operator.
          ctx.logger.warn({ err: (err as Error).message }, 'health: database unreachable');
          return c.json({ status: 'error', db: 'unreachable' } as const, 503);
        }
        return c.json({
          status: 'ok',
          db: 'ok',
          version: ctx.config.version,
          uptimeSeconds: Math.floor((Date.now() - ctx.startedAt.getTime()) / 1000),
        } as const);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/metrics',
      auth: 'public',
      summary: 'Prometheus metrics (not proxied by the web container)',
      tags: ['system'],
      responses: { 200: { description: 'Prometheus text format', contentType: 'text/plain' } },
      handler: async (c) => {
        const body = await ctx.metrics.registry.metrics();
        return c.body(body, 200, { 'Content-Type': ctx.metrics.registry.contentType });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/openapi.json',
      auth: 'public',
      summary: 'OpenAPI 3.1 description of the whole API',
      tags: ['system'],
      responses: { 200: { description: 'OpenAPI document', contentType: 'application/json' } },
      handler: (c) => c.json(openApi()),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/docs',
      auth: 'public',
      summary: 'Human-readable API reference',
      tags: ['system'],
      responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
      handler: (c) => {
        c.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
        return c.html(renderDocsPage(openApi()));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/openapi.json',
      auth: 'admin',
      summary: 'OpenAPI 3.1 description of the whole API (admin copy, 20-api.md §6)',
      tags: ['system'],
      responses: { 200: { description: 'OpenAPI document', contentType: 'application/json' } },
      handler: (c) => c.json(openApi()),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/current',
      auth: 'admin',
      summary: 'The signed-in administrator',
      tags: ['admin'],
      responses: { 200: { description: 'The admin', schema: adminUserSchema } },
      handler: async (c, { auth }) =>
        c.json(toAdminUser(await signedInUser(ctx, auth.userId), ctx.now())),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/system/info',
      auth: 'admin',
      summary: 'Versions, database, key counts, configured integrations and the last job runs',
      tags: ['admin'],
      responses: { 200: { description: 'System information', schema: systemInfoSchema } },
      handler: async (c) => c.json(await systemInfo(ctx)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/admin/dashboard',
      auth: 'admin',
      summary:
        'Members joining, expiring, lapsed and renewing (30 days) and revenue this month against the last',
      tags: ['admin'],
      responses: { 200: { description: 'Dashboard figures', schema: adminDashboardSchema } },
      handler: async (c) => c.json(await adminDashboard(ctx)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/internal/ping',
      auth: 'internal',
      summary: 'Lets the bot check that the API is reachable and the shared secret matches',
      tags: ['internal'],
      responses: {
        200: {
          description: 'Reachable and authorised',
          schema: z.object({ ok: z.literal(true), version: z.string() }),
        },
      },
      handler: (c) => c.json({ ok: true as const, version: ctx.config.version }),
    }),
  ];
}
