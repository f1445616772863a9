// Public surface of the system module (health, metrics, the OpenAPI document, the signed-in
// admin, the bot's reachability ping). app.ts imports from here.
export { systemRoutes } from './routes.js';
