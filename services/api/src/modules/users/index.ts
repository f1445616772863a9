// Public surface of the users module (admin user management). Other modules and app.ts import
// from here, never from the files behind it.
export { toAdminUser, toUser } from './dto.js';
export { userRoutes } from './routes.js';
