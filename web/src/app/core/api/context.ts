import { HttpContextToken } from '@angular/common/http';

/**
 * Marks the start-up `GET /me`: its 401 just clears the stored token (the guards then route),
 * instead of the usual sign-out redirect, which would race the router's first navigation.
 */
export const STARTUP_CHECK = new HttpContextToken<boolean>(() => false);
