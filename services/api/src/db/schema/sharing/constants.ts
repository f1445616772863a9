/** What a sharing event is about (docs/sharing.md). */
export const SHARING_RULES = ['streams', 'networks', 'devices', 'travel'] as const;
export type SharingRule = (typeof SHARING_RULES)[number];
/** `SHARING_ACTION`: what happens to an event (`notify` = the event alone). */
export const SHARING_ACTIONS = ['notify', 'message', 'stop', 'suspend'] as const;
export type SharingAction = (typeof SHARING_ACTIONS)[number];
export const SHARING_EVENT_STATUSES = ['open', 'actioned', 'dismissed'] as const;
export type SharingEventStatus = (typeof SHARING_EVENT_STATUSES)[number];
