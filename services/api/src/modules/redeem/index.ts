// Public surface of the redeem module (redeem codes and redemptions). Other modules and app.ts
// import from here, never from the files behind it.
export { redeemRoutes } from './routes.js';
export { consumeCode, findUsableCode, invalidCode, redeem, type InvalidReason } from './service.js';
