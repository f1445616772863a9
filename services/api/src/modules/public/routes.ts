import { publicSiteSchema } from '@usher/contracts';
import { type RouteDef, routeGroup } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { readPublicSite } from './site.js';

const api = routeGroup('public');

export function publicRoutes(ctx: ModuleContext): RouteDef[] {
  return [
    api.public.get('/api/v1/public/site', {
      summary: 'Branding and switches the public pages need',
      responses: { 200: { description: 'Site facts', schema: publicSiteSchema } },
      json: () => readPublicSite(ctx.db, ctx.settings.store, ctx.config.version),
    }),
  ];
}
