import { publicSiteSchema } from '@usher/contracts';
import { defineRoute, type RouteDef } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { readPublicSite } from './site.js';

export function publicRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/public/site',
      auth: 'public',
      summary: 'Branding and switches the public pages need',
      tags: ['public'],
      responses: { 200: { description: 'Site facts', schema: publicSiteSchema } },
      handler: async (c) =>
        c.json(await readPublicSite(ctx.db, ctx.settings.store, ctx.config.version)),
    }),
  ];
}
