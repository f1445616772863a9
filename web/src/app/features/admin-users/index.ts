// The admin-users feature's public surface: what other features may import (the overview's
// counts, the devices page's user filter). Everything else in this folder is private to it;
// `npm run lint` enforces that (.dependency-cruiser.cjs, web-feature-through-public-surface).
export { UsersApi } from './users-api';
