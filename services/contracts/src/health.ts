import { z } from 'zod';
import { safeString } from './common.js';

export const healthOkSchema = z.object({
  status: z.literal('ok'),
  db: z.literal('ok'),
  version: safeString(),
  uptimeSeconds: z.number().int().min(0),
});

export const healthDownSchema = z.object({
  status: z.literal('error'),
  db: z.literal('unreachable'),
});
