// Public surface of the public module (site facts for the sign-in page). app.ts imports from here.
export { publicRoutes } from './routes.js';
