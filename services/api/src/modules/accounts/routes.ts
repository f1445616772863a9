// Every account route in one readable place (20-api.md §4, §5 "Account", §7 messenger).
import type { RouteDef } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { createAccountLimiters } from './limits.js';
import { internalAccountRoutes } from './routes/internal.js';
import { meAccountRoutes } from './routes/me.js';
import { publicAccountRoutes } from './routes/public.js';

export function accountRoutes(ctx: ModuleContext): RouteDef[] {
  const limiters = createAccountLimiters(ctx.db);
  return [
    ...publicAccountRoutes(ctx, limiters),
    ...meAccountRoutes(ctx),
    ...internalAccountRoutes(ctx, limiters),
  ];
}
