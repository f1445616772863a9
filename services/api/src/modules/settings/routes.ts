import {
  internalSettingsSchema,
  settingsGroupReplySchema,
  settingsListSchema,
  settingsTestReplySchema,
  settingsTestRequestSchema,
  settingsUpdateRequestSchema,
  type SettingGroup,
  safeString,
} from '@usher/contracts';
import { z } from 'zod';
import { type RouteDef, routeGroup } from '../../http/route.js';
import { settingsUpdateBodySchema } from '../../settings-store/openapi.js';
import type { ModuleContext } from '../context.js';
import { testSettingsGroup } from './connection/index.js';
import { internalSettings } from './service.js';

const api = routeGroup('settings');

export interface SettingsRouteOptions {
  /** Limit of one connection test (default `TEST_DEADLINE_MS`, 10 s); tests shorten it. */
  connectionTestDeadlineMs?: number;
}

export function settingsRoutes(ctx: ModuleContext, options: SettingsRouteOptions = {}): RouteDef[] {
  return [
    api.admin.get('/api/v1/admin/settings', {
      summary: 'Every setting with its effective value and source; secrets only masked',
      responses: { 200: { description: 'Groups and items', schema: settingsListSchema } },
      json: () => ctx.settings.list(),
    }),
    api.admin.put('/api/v1/admin/settings/:group', {
      summary: "Update a group's keys in one transaction; null clears a stored value",
      request: {
        params: z.strictObject({ group: safeString() }),
        body: settingsUpdateRequestSchema,
      },
      documentedBody: settingsUpdateBodySchema,
      responses: {
        200: { description: 'The group after the change', schema: settingsGroupReplySchema },
      },
      errors: [
        'SETTING_INVALID',
        'SETTING_GROUP_NOT_FOUND',
        'SETTING_READ_ONLY',
        'SETTING_UNKNOWN_KEY',
        'SECRET_REENTRY_REQUIRED',
      ],
      handler: async (c, { params, body, actor, meta }) => {
        const items = await ctx.settings.update(params.group, body.values, actor, meta);
        return c.json({ group: params.group as SettingGroup, items });
      },
    }),
    api.admin.post('/api/v1/admin/settings/:group/test', {
      summary: "Test a group's connections, optionally with unsaved draft values",
      request: {
        params: z.strictObject({ group: safeString() }),
        body: settingsTestRequestSchema,
      },
      responses: {
        200: {
          description: 'One entry per check; failures are data, not HTTP errors',
          schema: settingsTestReplySchema,
        },
      },
      errors: [
        'SETTING_INVALID',
        'SETTING_TEST_UNSUPPORTED',
        'SETTING_UNKNOWN_KEY',
        'SECRET_REENTRY_REQUIRED',
      ],
      handler: async (c, { params, body }) =>
        c.json(
          await testSettingsGroup(
            {
              store: ctx.settings.store,
              config: ctx.config,
              metrics: ctx.metrics.integrations,
              logger: ctx.logger,
              now: ctx.now,
              jobs: ctx.scheduler.list(),
              deadlineMs: options.connectionTestDeadlineMs,
            },
            params.group,
            body,
          ),
        ),
    }),
    api.internal.get('/api/v1/internal/settings', {
      summary: 'Non-sensitive runtime settings the bot needs',
      tags: ['internal'],
      responses: { 200: { description: 'Bot settings', schema: internalSettingsSchema } },
      json: () => internalSettings(ctx),
    }),
  ];
}
