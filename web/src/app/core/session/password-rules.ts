/**
 * Password length limits of `PUT /me/password` (20-api.md §5). Mirrored from `@usher/contracts`
 * rather than imported: importing a value from contracts pulls zod into the production bundle.
 * `password-rules.spec.ts` fails when the two drift apart.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
