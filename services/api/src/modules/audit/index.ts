// Public surface of the audit module (the admin audit-log routes). app.ts imports from here.
export { auditRoutes } from './routes.js';
