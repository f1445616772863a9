import { z } from 'zod';
import { isoInstant, safeString } from './common.js';
import { newPasswordSchema, userSchema } from './users.js';

export const loginRequestSchema = z.strictObject({
  /** Username or email address. */
  username: safeString().trim().min(1).max(254),
  password: safeString().min(1).max(128),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginResponseSchema = z.object({
  token: safeString(),
  expiresAt: isoInstant,
  user: userSchema,
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const logoutRequestSchema = z.strictObject({
  /** Whether every token of the account is revoked, not just this one. */
  allDevices: z.boolean().optional(),
});

export const changePasswordRequestSchema = z.strictObject({
  currentPassword: safeString().min(1).max(128),
  newPassword: newPasswordSchema,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

export const tokenResponseSchema = z.object({
  token: safeString(),
  expiresAt: isoInstant,
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;
