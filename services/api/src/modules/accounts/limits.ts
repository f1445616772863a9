// The account limiters of 20-api.md §1.6 that the shared set does not hold, stored in
// `rate_limits` like the others so every replica counts together.
import type { Database } from '../../db/client.js';
import { StoredLimiter } from '../../http/rate-limit.js';

export interface AccountLimiters {
  /** Registration attempts per IP: 10 / h. */
  registration: StoredLimiter;
  /** Failed messenger binds per Telegram id: 5 / 10 min. */
  messengerBind: StoredLimiter;
  /** Bot password resets per Telegram id: 3 / h. */
  botPasswordReset: StoredLimiter;
}

export function createAccountLimiters(db: Database): AccountLimiters {
  return {
    registration: new StoredLimiter(db, {
      name: 'register_ip',
      points: 10,
      durationSeconds: 3600,
    }),
    messengerBind: new StoredLimiter(db, {
      name: 'messenger_bind',
      points: 5,
      durationSeconds: 10 * 60,
    }),
    botPasswordReset: new StoredLimiter(db, {
      name: 'bot_password_reset',
      points: 3,
      durationSeconds: 3600,
    }),
  };
}
