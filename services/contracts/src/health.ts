import { z } from 'zod';

export const healthOkSchema = z.object({
  status: z.literal('ok'),
  db: z.literal('ok'),
  version: z.string(),
  uptimeSeconds: z.number().int().min(0),
});

export const healthDownSchema = z.object({
  status: z.literal('error'),
  db: z.literal('unreachable'),
});
