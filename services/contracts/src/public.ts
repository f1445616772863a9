import { z } from 'zod';
import { safeString } from './common.js';
import { MEDIA_SERVER_KINDS, REGISTRATION_MODES } from './values.js';

/** `GET /public/site` (20-api.md §4): what public pages need before anyone signs in. */
export const publicSiteSchema = z
  .object({
    siteName: safeString(),
    registrationMode: z.enum(REGISTRATION_MODES),
    emailEnabled: z.boolean(),
    paymentsEnabled: z.boolean(),
    mediaServerKind: z.enum(MEDIA_SERVER_KINDS),
    version: safeString(),
    /** Whether the bootstrap admin still has to sign in and change the first password. */
    setupPending: z.boolean(),
    tmdbImageBase: safeString(),
    /** Single sign-on as the sign-in page shows it (docs/sso.md). */
    sso: z.object({
      /** Whether "Sign in with …" is offered (switched on and configured). */
      enabled: z.boolean(),
      label: safeString(),
      /** Whether `/login` goes straight to the provider (`?local=1` shows the form). */
      autoRedirect: z.boolean(),
      /** Whether password sign-in is offered to everyone (false: bootstrap admin only). */
      passwordLogin: z.boolean(),
    }),
  })
  .meta({ id: 'PublicSite' });
export type PublicSite = z.infer<typeof publicSiteSchema>;
