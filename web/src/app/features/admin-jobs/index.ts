// The admin-jobs feature's public surface: the jobs API, which the media-quality page uses to
// follow a scan it started and the backups page a backup. Everything else in this folder is private to it
// (.dependency-cruiser.cjs, web-feature-through-public-surface).
export { JobsApi } from './jobs-api';
