import type { BulkUserAction, ErrorCode } from '@usher/contracts';
import { asAppError } from '../../errors/app-error.js';
import type { Caller, ModuleContext } from '../context.js';
import { deleteUser, extendUser, setActive, setMediaAccess } from './service.js';

export interface BulkResult {
  id: string;
  ok: boolean;
  code?: ErrorCode;
}

/**
 * `POST /admin/users/bulk`: each id goes through the same routine as its single route, on its
 * own (one failure never stops the others, one audit row per user). Ids are handled once, in
 * the order given.
 */
export async function bulkUsers(
  ctx: ModuleContext,
  input: { ids: string[]; action: BulkUserAction; days?: number },
  caller: Caller,
): Promise<{ results: BulkResult[] }> {
  const run = (id: string): Promise<unknown> => {
    switch (input.action) {
      case 'extend':
        return extendUser(ctx, id, input.days!, caller);
      case 'activate':
        return setActive(ctx, id, true, caller);
      case 'deactivate':
        return setActive(ctx, id, false, caller);
      case 'media_enable':
        return setMediaAccess(ctx, id, true, caller);
      case 'media_disable':
        return setMediaAccess(ctx, id, false, caller);
      case 'delete':
        return deleteUser(ctx, id, caller);
    }
  };
  const results: BulkResult[] = [];
  for (const id of [...new Set(input.ids)]) {
    try {
      await run(id);
      results.push({ id, ok: true });
    } catch (err) {
      // A refusal for one id is its result; a bug is logged and reported for that id only.
      const refusal = asAppError(err);
      if (refusal) {
        results.push({ id, ok: false, code: refusal.code });
      } else {
        ctx.logger.error({ err, id, action: input.action }, 'bulk user action failed');
        results.push({ id, ok: false, code: 'INTERNAL_ERROR' });
      }
    }
  }
  return { results };
}
