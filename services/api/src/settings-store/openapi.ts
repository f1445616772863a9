import { SETTING_DEFINITIONS } from './definitions.js';
import { GROUP_LABELS, type SettingDefinition } from './types.js';

type JsonSchema = Record<string, unknown>;

/** One key's value as JSON Schema 2020-12, from its registry entry (types of 30-settings.md §2). */
function valueSchema(def: SettingDefinition): JsonSchema {
  const strings = (extra: JsonSchema = {}): JsonSchema => ({
    type: 'string',
    ...(def.minLength !== undefined ? { minLength: def.minLength } : {}),
    ...(def.maxLength !== undefined ? { maxLength: def.maxLength } : {}),
    ...(def.pattern ? { pattern: def.pattern.source } : {}),
    ...extra,
  });
  switch (def.type) {
    case 'boolean':
      return { type: 'boolean' };
    case 'integer':
      return {
        type: 'integer',
        ...(def.min !== undefined ? { minimum: def.min } : {}),
        ...(def.max !== undefined ? { maximum: def.max } : {}),
      };
    case 'enum':
      return { type: 'string', enum: [...(def.options ?? [])] };
    case 'list':
      return {
        type: 'array',
        items: strings(),
        ...(def.maxItems !== undefined ? { maxItems: def.maxItems } : {}),
      };
    case 'url':
      return strings({ format: 'uri', maxLength: def.maxLength ?? 2048 });
    case 'secret':
      return strings({ maxLength: def.maxLength ?? 4096, writeOnly: true });
    case 'cron':
      return strings({ description: 'Five-field cron expression' });
    case 'timezone':
      return strings({ description: 'IANA time zone name' });
    default:
      return strings();
  }
}

/**
 * The body of `PUT /admin/settings/{group}`, generated from the settings registry so the OpenAPI
 * document names every key with its type, limits, default and group, and cannot drift from what
 * the API validates. `null` clears a stored value (back to env, then default).
 */
export function settingsUpdateBodySchema(): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const def of SETTING_DEFINITIONS) {
    properties[def.key] = {
      anyOf: [valueSchema(def), { type: 'null' }],
      title: def.label,
      description: `${def.description} (group: ${GROUP_LABELS[def.group]})`,
      'x-usher-group': def.group,
      'x-usher-sensitive': def.sensitive === true,
      ...(def.sensitive ? {} : { default: def.default }),
    };
  }
  return {
    type: 'object',
    required: ['values'],
    additionalProperties: false,
    properties: {
      values: {
        type: 'object',
        description:
          'Keys of the group named in the path; each key belongs to the group in its x-usher-group. null clears a stored value.',
        additionalProperties: false,
        properties,
      },
    },
  };
}
