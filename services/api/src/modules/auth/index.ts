// Public surface of the auth module (login, logout, the signed-in account, password change).
// app.ts and the system module import from here.
export { authRoutes } from './routes.js';
export { signedInUser } from './service.js';
