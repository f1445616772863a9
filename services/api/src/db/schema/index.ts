export * from './users/table.js';
export * from './settings/table.js';
export * from './audit-log/table.js';
export * from './jobs/table.js';
export * from './rate-limits/table.js';
export * from './redeem-codes/table.js';
export * from './accounts/table.js';
export * from './retry-queue/table.js';
