// Member accounts (20-api.md §4 registration and password reset, §5 "Account", §7 messenger
// routes): request and reply bodies shared by the API, the web and the bot.
import { z } from 'zod';
import { LOCALES, MEDIA_STATES, REGISTRATION_MODES, ROLES } from './values.js';
import { isoInstant, uuidSchema, safeString } from './common.js';
import { newPasswordSchema, usernameSchema, userSchema } from './users.js';
import { redeemResponseSchema } from './redeem.js';

/** An email address as typed; the API compares and stores it lower-cased. */
const emailAddress = z.email({ message: 'Enter a valid email address' }).max(254);

/** A 6-digit code (emailed codes, messenger bind codes). */
export const sixDigitCodeSchema = safeString().regex(/^\d{6}$/, { message: 'Enter the 6 digits' });

// ---- Registration (20-api.md §4) ----

/** `GET /auth/register/mode`. */
export const registerModeSchema = z
  .object({
    mode: z.enum(REGISTRATION_MODES),
    /** Trial days of open mode; null in invite mode. */
    defaultTrialDays: z.number().int().min(0).nullable(),
    /** Whether an emailed code is required (setting on AND email configured). */
    emailVerification: z.boolean(),
    /** Allowed address hosts; empty = any. */
    allowedEmailDomains: z.array(safeString()),
    /** The username rule as a regular expression source. */
    usernamePattern: safeString(),
    passwordMinLength: z.literal(8),
  })
  .meta({ id: 'RegisterMode' });
export type RegisterMode = z.infer<typeof registerModeSchema>;

export const registerSendCodeSchema = z.strictObject({ email: emailAddress });

/** Reply of every "send me a code" route. */
export const emailCodeSentSchema = z.object({
  expiresAt: isoInstant,
  /** Seconds until another code may be sent to the same address. */
  resendAfterSeconds: z.number().int().min(0),
});
export type EmailCodeSent = z.infer<typeof emailCodeSentSchema>;

export const registerRequestSchema = z.strictObject({
  username: usernameSchema,
  password: newPasswordSchema,
  email: emailAddress,
  /** Redeem code: required in invite mode, optional in open mode (grants its days). */
  code: safeString().trim().min(1).max(64).optional(),
  /** Emailed code, when email verification is on. */
  emailCode: sixDigitCodeSchema.optional(),
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

export const registerResponseSchema = z.object({
  token: safeString(),
  expiresAt: isoInstant,
  user: userSchema,
});
export type RegisterResponse = z.infer<typeof registerResponseSchema>;

// ---- Password reset by email (20-api.md §4) ----

export const forgotPasswordSchema = z.strictObject({ email: emailAddress });
export const resetPasswordSchema = z.strictObject({
  email: emailAddress,
  code: sixDigitCodeSchema,
  newPassword: newPasswordSchema,
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordSchema>;

export const okSchema = z.object({ ok: z.literal(true) });

// ---- Own account (20-api.md §5) ----

export const updateMeSchema = z.strictObject({ locale: z.enum(LOCALES).nullable() });
export const emailChangeSendCodeSchema = z.strictObject({ newEmail: emailAddress });
export const emailChangeSchema = z.strictObject({
  newEmail: emailAddress,
  code: sixDigitCodeSchema,
});
export const bindCodeSchema = z.object({ code: sixDigitCodeSchema, expiresAt: isoInstant });
export type BindCode = z.infer<typeof bindCodeSchema>;

// ---- Internal messenger routes for the bot (20-api.md §7) ----

/** Telegram user id of the person talking to the bot (positive, ≤ 52 bits). */
export const messengerIdSchema = z
  .number()
  .int()
  .min(1)
  .max(2 ** 53 - 1);
/** Telegram's `language_code`; `zh*` / `en*` fill `users.locale` while it is still null. */
const languageCode = safeString().max(35).optional();

export const messengerBindSchema = z.strictObject({
  messengerId: messengerIdSchema,
  code: sixDigitCodeSchema,
  languageCode,
});
export const messengerBindResponseSchema = z.object({ userId: uuidSchema, username: safeString() });

export const messengerLookupSchema = z.strictObject({
  messengerId: messengerIdSchema,
  languageCode,
});
export const messengerLookupResponseSchema = z
  .object({
    userId: uuidSchema,
    username: safeString(),
    email: safeString().nullable(),
    role: z.enum(ROLES),
    isActive: z.boolean(),
    expiresAt: isoInstant.nullable(),
    isExpired: z.boolean(),
    media: z.object({ linked: z.boolean(), state: z.enum(MEDIA_STATES) }),
  })
  .meta({ id: 'MessengerAccount' });
export type MessengerAccount = z.infer<typeof messengerLookupResponseSchema>;

export const messengerRedeemSchema = z.strictObject({
  messengerId: messengerIdSchema,
  code: safeString().trim().min(1).max(64),
  languageCode,
});
export const messengerRedeemResponseSchema = redeemResponseSchema;

export const messengerResetPasswordSchema = z.strictObject({
  messengerId: messengerIdSchema,
  languageCode,
});
export const messengerResetPasswordResponseSchema = z.object({
  username: safeString(),
  /** 20 characters without look-alikes; shown once, never logged. */
  password: safeString(),
});
