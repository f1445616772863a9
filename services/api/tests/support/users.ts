import { randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { hash } from '@node-rs/argon2';
import { hashPassword } from '../../src/security/passwords.js';
import type { Database } from '../../src/db/client.js';
import { users, type NewUserRow, type UserRow } from '../../src/db/schema/index.js';

/**
 * argon2id at the cheapest parameters argon2 allows, for seeded rows only: a seeded user's hash is
 * verified at the parameters it carries, so signing in as one costs ~1 ms instead of the
 * production parameters' tens of milliseconds, hundreds of times per run. The production
 * parameters stay covered where the app hashes (tests/auth: register, password change, login).
 */
const FIXTURE_ARGON2 = { algorithm: 2, memoryCost: 8, timeCost: 1, parallelism: 1 } as const;

/** The hash a seeded user's password is stored with (cheap parameters, see above). */
export const hashFixturePassword = (password: string) => hash(password, FIXTURE_ARGON2);

/**
 * Builder for users rows: `aUser().admin().withPassword('x').create(db)`. Each user gets a
 * unique name so tests never collide. (Lives with the API because it writes the API's schema.)
 */
export class UserBuilder {
  private row: Partial<NewUserRow> = {};
  private password = `pw-${randomBytes(6).toString('hex')}`;
  private productionHash = false;

  admin(): this {
    this.row.role = 'admin';
    this.row.registeredVia = 'admin';
    return this;
  }
  named(username: string): this {
    this.row.username = username;
    return this;
  }
  withEmail(email: string): this {
    this.row.email = email.toLowerCase();
    return this;
  }
  withPassword(password: string): this {
    this.password = password;
    return this;
  }
  /**
   * Hashes the password as the app does (production parameters), for tests where the cost of a
   * verification is what they measure (failed-login timing).
   */
  withProductionHash(): this {
    this.productionHash = true;
    return this;
  }
  mustChangePassword(): this {
    this.row.mustChangePassword = true;
    return this;
  }
  inactive(): this {
    this.row.isActive = false;
    return this;
  }
  expiresAt(date: Date | null): this {
    this.row.expiresAt = date;
    return this;
  }
  linkedTo(mediaUserId: string, options: { mediaDisabled?: boolean } = {}): this {
    this.row.mediaUserId = mediaUserId;
    this.row.mediaDisabled = options.mediaDisabled ?? false;
    return this;
  }
  neverExpires(): this {
    return this.expiresAt(null);
  }
  expired(): this {
    return this.expiresAt(new Date(Date.now() - 86_400_000));
  }

  async create(db: Database): Promise<UserRow & { password: string }> {
    const [row] = await db
      .insert(users)
      .values({
        id: uuidv7(),
        username: `u_${randomBytes(5).toString('hex')}`,
        role: 'user',
        registeredVia: 'open',
        expiresAt: this.row.role === 'admin' ? null : new Date(Date.now() + 30 * 86_400_000),
        ...this.row,
        passwordHash: await (this.productionHash ? hashPassword : hashFixturePassword)(
          this.password,
        ),
      })
      .returning();
    return { ...row!, password: this.password };
  }
}

export const aUser = () => new UserBuilder();
