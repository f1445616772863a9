/** Why a media-server write was queued for retry (`media_server_retry_queue.origin`, its check constraint). */
export const RETRY_ORIGINS = [
  'register_cleanup',
  'renewal',
  'expiry',
  'admin_access',
  'user_delete',
  'policy_apply',
  'grace_delete',
  'inactivity',
  'sharing',
] as const;

export type RetryOrigin = (typeof RETRY_ORIGINS)[number];
