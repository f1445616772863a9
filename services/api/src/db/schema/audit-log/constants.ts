export const ACTOR_TYPES = ['user', 'admin', 'bot', 'system', 'webhook'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];
