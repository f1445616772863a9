// Public surface of the webhooks module (inbound webhooks: the media server's). app.ts imports
// from here.
export { mediaServerWebhookRoutes } from './media-server/routes.js';
