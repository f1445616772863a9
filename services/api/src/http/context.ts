import type { Role } from '@usher/contracts';
import type { Logger } from 'pino';

/** The signed-in caller of a `user`/`admin` route, as loaded from the database per request. */
export interface AuthContext {
  userId: string;
  username: string;
  role: Role;
  tokenVersion: number;
  mustChangePassword: boolean;
}

export interface AppVariables {
  requestId: string;
  logger: Logger;
  clientIp: string | null;
  /** The route template (`/api/v1/users/:id`) once a route matched; metrics and logs use it. */
  routeTemplate?: string;
  auth?: AuthContext;
}

export interface AppEnv {
  Variables: AppVariables;
}
