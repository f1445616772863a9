export { REGISTERED_VIA, ROLES, LOCALES } from '@usher/contracts';
