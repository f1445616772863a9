// The admin-settings feature's public surface: the settings API and the reading of a refused
// save's per-key messages, which the lifecycle page uses for the reminder texts of the
// `lifecycle` group. Everything else in this folder
// is private to it (.dependency-cruiser.cjs, web-feature-through-public-surface).
export { SettingsApi } from './settings-api';
export { fieldErrors } from './settings-logic';
