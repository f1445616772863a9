import { z } from 'zod';
import { MEDIA_SERVER_KINDS, REGISTRATION_MODES } from './values.js';

/** `GET /public/site` (20-api.md §4): what public pages need before anyone signs in. */
export const publicSiteSchema = z
  .object({
    siteName: z.string(),
    registrationMode: z.enum(REGISTRATION_MODES),
    emailEnabled: z.boolean(),
    paymentsEnabled: z.boolean(),
    mediaServerKind: z.enum(MEDIA_SERVER_KINDS),
    version: z.string(),
    /** Whether the bootstrap admin still has to sign in and change the first password. */
    setupPending: z.boolean(),
    tmdbImageBase: z.string(),
  })
  .meta({ id: 'PublicSite' });
export type PublicSite = z.infer<typeof publicSiteSchema>;
