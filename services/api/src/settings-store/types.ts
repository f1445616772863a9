import type { SettingGroup, SettingType, SettingValue } from '@usher/contracts';

/** One runtime setting: the single source of truth for API, admin page and OpenAPI. */
export interface SettingDefinition {
  key: string;
  group: Exclude<SettingGroup, 'deployment'>;
  type: SettingType;
  label: string;
  description: string;
  /** Typed default (`''` for unset strings, `[]` for lists). */
  default: SettingValue;
  /** Whether the value is encrypted at rest and never returned (§1). */
  sensitive?: boolean;
  /**
   * For a secret: the settings that say where it is sent (URL, host, port, user). A test or save
   * that changes one of them must carry the secret again (`settings-store/binding.ts`).
   */
  boundTo?: readonly string[];
  /** Whether an empty string is a real value that overrides env and default. */
  allowEmpty?: boolean;
  apply?: 'live' | 'rearm';
  options?: readonly string[];
  min?: number;
  max?: number;
  maxLength?: number;
  minLength?: number;
  /** Pattern a string (or each list item) must match. */
  pattern?: RegExp;
  patternHint?: string;
  /** Maximum number of list items. */
  maxItems?: number;
  multiline?: boolean;
  /** Extra check returning an error message or null. */
  check?: (value: SettingValue) => string | null;
  fallbackHint?: string;
}

/**
 * The value each setting type resolves to (`settings/validate.ts` parses into these). A type
 * missing here falls back to the whole `SettingValue` union, never to something narrower.
 */
interface ValueByType extends Record<SettingType, SettingValue> {
  string: string;
  text: string;
  secret: string;
  boolean: boolean;
  integer: number;
  url: string;
  enum: string;
  list: string[];
  cron: string;
  timezone: string;
  chat_id: string;
}

/** The value type of one definition: an enum with listed options is their literal union. */
export type ValueOfDefinition<D> = D extends {
  type: 'enum';
  options: readonly (infer O extends string)[];
}
  ? O
  : D extends { type: infer T extends SettingType }
    ? ValueByType[T]
    : never;

export const GROUP_LABELS: Record<SettingGroup, string> = {
  general: 'General & registration',
  media_server: 'Media server',
  metadata: 'Metadata (TMDB)',
  automation: 'Requests & automation',
  email: 'Email',
  payment: 'Payments',
  messenger: 'Messenger bot',
  schedule: 'Schedules',
  lifecycle: 'Membership lifecycle',
  sharing: 'Account sharing',
  sso: 'Single sign-on',
  deployment: 'Deployment (read-only)',
};

/** Groups that have a connection test (30-settings.md §3). */
export const TESTABLE_GROUPS: ReadonlySet<SettingGroup> = new Set([
  'media_server',
  'metadata',
  'automation',
  'email',
  'payment',
  'messenger',
  'schedule',
  'sso',
]);
