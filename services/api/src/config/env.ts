import { z } from 'zod';
import { checkSecrets, formatViolation } from './secret-rules.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(z.url().optional());

/**
 * The API's environment (70-deploy.md §2). Parsed once at start; nobody reads `process.env` later.
 * Runtime settings (media server, TMDB, SMTP…) are not here: they live in the settings center.
 */
export const envSchema = z.object({
  NODE_ENV: z.enum(['production', 'development', 'test']).default('production'),
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  /** Listen address (`127.0.0.1`, `::`, `0.0.0.0`, a host name); unset = every interface. */
  HOST: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9.:%_-]{1,253}$/, 'must be an IP address or a host name')
    .optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  DATABASE_URL: optionalUrl,
  // Emptiness and strength are the secret rules' job, so they can name the rule.
  DATABASE_PASSWORD: z.string().default(''),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /** Folder of the embedded PGlite database when DATABASE_URL is empty. */
  PGLITE_DATA_DIR: z.string().trim().min(1).default('./data/db'),
  JWT_SECRET: z.string().default(''),
  CONFIG_ENCRYPTION_KEY: z.string().default(''),
  INTERNAL_API_SECRET: z.string().default(''),
  ADMIN_PASSWORD: z
    .string()
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  MESSENGER_WEBHOOK_SECRET: z
    .string()
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  BOT_NOTIFY_URL: optionalUrl,
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /** Folder of backup files: the `backup` job writes there, `/admin/backups` lists it. */
  BACKUP_DIR: z.string().trim().min(1).default('./data/backups'),
  /** Folder of the built web app served at `/` (empty or missing = API only). */
  WEB_DIST_DIR: z
    .string()
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
});

export type Config = z.infer<typeof envSchema> & { version: string };

export type ConfigResult = { ok: true; config: Config } | { ok: false; errors: string[] };

/**
 * Validates the environment: schema first, then the secret rules.
 * Error lines name the variable and the rule, never a value.
 */
export function loadConfig(
  env: Record<string, string | undefined>,
  version = '0.0.0',
): ConfigResult {
  const errors: string[] = [];
  // An empty `NAME=` line in .env means "not set": the default applies (secrets still fail
  // their "present" rule below).
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const variable = issue.path.join('.') || '(environment)';
      // zod messages for these checks never echo the input value.
      errors.push(`${variable}: rule "format" failed: ${issue.message}`);
    }
  }
  for (const violation of checkSecrets(env)) errors.push(formatViolation(violation));
  if (errors.length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, config: { ...parsed.data, version } };
}
