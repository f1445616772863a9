// The admin-settings feature's public surface: the settings API, which the lifecycle page uses
// to read and save the reminder texts of the `lifecycle` group. Everything else in this folder
// is private to it (.dependency-cruiser.cjs, web-feature-through-public-surface).
export { SettingsApi } from './settings-api';
