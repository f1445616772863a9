// `POST /admin/users` (20-api.md §6, §8.1 without codes and bot event): the local account and,
// for members, the media-server account are created all or nothing.
import type { AdminUser, CreateAdminUserRequest } from '@usher/contracts';
import { v7 as uuidv7 } from 'uuid';
import { auditCaller } from '../../audit-log/audit.js';
import { generatePassword, hashPassword } from '../../security/passwords.js';
import { AppError } from '../../errors/app-error.js';
import {
  assertUsernameAvailable,
  compensate,
  isUsernameTakenLocally,
  provisionMediaUser,
  usernameTaken,
} from '../membership/index.js';
import type { Caller, ModuleContext } from '../context.js';
import { toAdminUser } from './dto.js';
import { emailTaken as emailInUse, insertUser } from './queries.js';
import { isUniqueViolation } from '../../db/errors.js';
import { withTransaction } from '../../db/transaction.js';

const emailTaken = () => new AppError('EMAIL_TAKEN', 'Another account already uses this email');

export async function createUser(
  ctx: ModuleContext,
  input: CreateAdminUserRequest,
  caller: Caller,
): Promise<{ user: AdminUser; generatedPassword?: string }> {
  const now = ctx.now();
  const isMember = input.role === 'user';
  const wantsMedia = isMember && input.createMediaUser !== false;
  const expiresAt = isMember && input.expiresAt ? new Date(input.expiresAt) : null;
  const accessOff = isMember && input.mediaAccessDisabled === true;
  const password = input.password ?? generatePassword();

  // §8.1 step 2: nothing is written until the name and the address are known to be free.
  if (wantsMedia) await assertUsernameAvailable(ctx, input.username);
  else if (await isUsernameTakenLocally(ctx.db, input.username)) throw usernameTaken();
  if (input.email) {
    if (await emailInUse(ctx.db, input.email)) throw emailTaken();
  }

  const disabled = (expiresAt !== null && expiresAt.getTime() <= now.getTime()) || accessOff;
  const media = wantsMedia
    ? await provisionMediaUser(ctx, { username: input.username, password, disabled })
    : null;
  const passwordHash = await hashPassword(password);
  try {
    const row = await withTransaction(ctx, async (tx) => {
      const created = await insertUser(tx, {
        id: uuidv7(),
        username: input.username,
        email: input.email ?? null,
        passwordHash,
        role: input.role,
        // A generated password was seen by the admin only: the owner picks their own.
        mustChangePassword: input.password === undefined,
        expiresAt,
        mediaUserId: media?.mediaUserId ?? null,
        mediaDisabled: media?.disabled ?? false,
        mediaAccessDisabled: accessOff,
        registeredVia: 'admin',
        createdAt: now,
        updatedAt: now,
      });
      await auditCaller(
        tx,
        caller,
        'user.create',
        { type: 'user', id: created.id },
        {
          username: created.username,
          role: created.role,
          expiresAt: expiresAt?.toISOString() ?? null,
          mediaUserId: created.mediaUserId,
          mediaAccessDisabled: accessOff,
          generatedPassword: input.password === undefined,
        },
      );
      return created;
    });
    return {
      user: toAdminUser(row, now),
      ...(input.password === undefined ? { generatedPassword: password } : {}),
    };
  } catch (err) {
    // §8.1 step 6: the local insert failed after the media user exists — remove it again.
    if (media) await compensate(ctx, media.mediaUserId);
    if (isUniqueViolation(err, 'users_username_lower_uq')) throw usernameTaken();
    if (isUniqueViolation(err, 'users_email_uq')) throw emailTaken();
    throw err;
  }
}
