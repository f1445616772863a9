import type { RouteDef } from '../../http/route.js';
import type { ModuleContext } from '../context.js';
import { adminRequestRoutes } from './routes/admin.js';
import { internalRequestRoutes } from './routes/internal.js';
import { memberRequestRoutes } from './routes/member.js';

export { episodeCode } from './dto.js';
export {
  ingestEpisode,
  ingestMovie,
  reconcileApproved,
  type IngestActor,
  type ReconcileOutcome,
} from './ingest.js';

/** Every media-request route: member, admin review, and the bot's internal ones. */
export function requestRoutes(ctx: ModuleContext): RouteDef[] {
  return [...memberRequestRoutes(ctx), ...adminRequestRoutes(ctx), ...internalRequestRoutes(ctx)];
}
export {
  libraryTitles,
  searchAvailability,
  seasonAvailability,
  titleKey,
  type SearchTitle,
} from './availability.js';
