export * from './users/table.js';
export * from './settings/table.js';
export * from './audit-log/table.js';
export * from './jobs/table.js';
export * from './rate-limits/table.js';
