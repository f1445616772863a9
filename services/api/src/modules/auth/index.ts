// Public surface of the auth module (login, logout, the signed-in account, password change).
// app.ts imports from here.
export { authRoutes } from './routes.js';
