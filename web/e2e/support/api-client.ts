/** Small JSON calls against the e2e stack: one copy, in admin-session.ts. */
export { apiCall, readyAdmin } from './admin-session.js';
