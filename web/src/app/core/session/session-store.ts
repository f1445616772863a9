import { HttpErrorResponse } from '@angular/common/http';
import { DestroyRef, Injectable, computed, inject, signal } from '@angular/core';
import { Router } from '@angular/router';
import type { Locale, LoginResponse, User } from '@usher/contracts';
import { ApiError } from '../api/api-error';
import { AuthApi } from './auth-api';
import { safeRedirect } from './redirect';

/** localStorage key of the session (60-web.md §2.1). */
export const SESSION_KEY = 'usher.session';

interface StoredSession {
  token: string;
  expiresAt: string;
  /**
   * Set while the account must change its password: boot.js then starts no page reads the API
   * would refuse (403) before the app sends the member to the change (issue 36).
   */
  mustChangePassword?: true;
}

/** The session to store for `token`, with the password-change hint `user` calls for. */
function sessionOf(reply: { token: string; expiresAt: string }, user: User): StoredSession {
  const session: StoredSession = { token: reply.token, expiresAt: reply.expiresAt };
  return user.mustChangePassword ? { ...session, mustChangePassword: true } : session;
}

function readStored(storage: Storage): StoredSession | null {
  const raw = storage.getItem(SESSION_KEY);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<StoredSession>;
    if (typeof parsed.token !== 'string' || typeof parsed.expiresAt !== 'string') return null;
    return Date.parse(parsed.expiresAt) > Date.now() ? (parsed as StoredSession) : null;
  } catch {
    // A hand-edited or corrupt entry is the same as none: the user signs in again.
    return null;
  }
}

/** Whether the failure means "the server is unreachable or broken", not "you are signed out". */
function isOutage(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 0 || error.status >= 500;
  return error instanceof HttpErrorResponse && (error.status === 0 || error.status >= 500);
}

/**
 * The signed-in session: the bearer token (persisted) and `me` (refreshed from `GET /me`).
 * Signals only; the router is used solely to leave the console when the session ends.
 */
@Injectable({ providedIn: 'root' })
export class SessionStore {
  private readonly api = inject(AuthApi);
  private readonly router = inject(Router);
  private readonly storage = localStorage;
  private readonly stored = signal<StoredSession | null>(readStored(this.storage));

  readonly token = computed(() => this.stored()?.token ?? null);
  readonly me = signal<User | null>(null);
  /** When `me` last came from the API (`Date.now()`), 0 when never: see `freshMe`. */
  private meLoadedAt = 0;
  readonly signedIn = computed(() => this.stored() !== null);
  readonly isAdmin = computed(() => this.me()?.role === 'admin');
  readonly mustChangePassword = computed(() => this.me()?.mustChangePassword ?? false);
  /** Whether the bootstrap `GET /me` failed for lack of a server (the token is kept). */
  readonly unreachable = signal(false);
  /**
   * The password typed at sign-in, kept in memory only so the forced first-login change can
   * pre-fill "Current password" (60-web.md §2.3). Gone after a reload or a successful change.
   */
  readonly signInPassword = signal<string | null>(null);

  constructor() {
    // Signing out (or in) in another tab applies here too (60-web.md §2.1).
    const onStorage = (event: StorageEvent) => {
      if (event.key !== SESSION_KEY) return;
      const next = readStored(this.storage);
      if (next === null) {
        if (this.signedIn()) this.endLocally('/login');
      } else if (next.token !== this.token()) {
        this.stored.set(next);
        void this.refreshMe().catch(() => undefined);
      }
    };
    window.addEventListener('storage', onStorage);
    inject(DestroyRef).onDestroy(() => window.removeEventListener('storage', onStorage));
  }

  /** App start: with a stored token, load `me`. A 401 clears it; an outage keeps it. */
  async bootstrap(): Promise<void> {
    if (!this.signedIn()) return;
    try {
      this.noteMe(await this.api.meAtStartup());
      this.unreachable.set(false);
    } catch (error) {
      if (isOutage(error)) this.unreachable.set(true);
      else this.clear();
    }
  }

  async signIn(username: string, password: string): Promise<User> {
    const reply = await this.api.login({ username, password });
    this.save(sessionOf(reply, reply.user));
    this.me.set(reply.user);
    this.signInPassword.set(reply.user.mustChangePassword ? password : null);
    return reply.user;
  }

  /** Starts a session from a reply that carries one (registration answers like sign-in). */
  adopt(reply: LoginResponse): void {
    this.save(sessionOf(reply, reply.user));
    this.me.set(reply.user);
    this.signInPassword.set(null);
  }

  /**
   * Saves the UI language as the account's locale (`PATCH /me {locale}`), which the bot and the
   * mails use (60-web.md §6.4). Best effort: the switch itself already happened locally.
   */
  async saveLocale(locale: Locale): Promise<void> {
    if (!this.signedIn() || this.mustChangePassword() || this.me()?.locale === locale) return;
    try {
      this.me.set(await this.api.updateLocale(locale));
    } catch {
      // Not worth an error on screen: the next switch (or sign-in) tries again.
    }
  }

  /** Changes the password; the reply's token replaces ours because the old one is now dead. */
  async changePassword(currentPassword: string, newPassword: string): Promise<void> {
    const reply = await this.api.changePassword({ currentPassword, newPassword });
    this.save({ token: reply.token, expiresAt: reply.expiresAt });
    this.signInPassword.set(null);
    await this.refreshMe();
  }

  async refreshMe(): Promise<User> {
    const user = await this.api.me();
    this.noteMe(user);
    return user;
  }

  /**
   * `me` as loaded within the last `maxAgeMs`, else fetched again. The overview wants a fresh
   * record (an admin may have renewed it), but not a second `GET /me` right after the one the
   * app start made (issue 14: it was asked for twice on every first visit to the overview).
   */
  async freshMe(maxAgeMs: number): Promise<User> {
    const me = this.me();
    if (me && Date.now() - this.meLoadedAt < maxAgeMs) return me;
    return this.refreshMe();
  }

  /** Signs out: tells the API (best effort, it may be down), then forgets the session. */
  async signOut(allDevices = false): Promise<void> {
    if (this.signedIn()) {
      await this.api.logout(allDevices).catch(() => undefined);
    }
    this.endLocally('/login');
  }

  /**
   * The API said our token is no longer good. Only the first of a burst of such replies acts:
   * later ones find the session already gone. Returns whether this call ended the session.
   */
  expire(currentUrl: string): boolean {
    if (!this.signedIn()) return false;
    const redirect = safeRedirect(currentUrl);
    this.endLocally('/login', redirect ? { redirect } : {});
    return true;
  }

  /** Marks the account as needing a password change after the API answered 403 for it. */
  requirePasswordChange(): void {
    const me = this.me();
    if (me && !me.mustChangePassword) this.me.set({ ...me, mustChangePassword: true });
  }

  /** `me` as the API just gave it; the stored hint follows its `mustChangePassword`. */
  private noteMe(user: User): void {
    this.me.set(user);
    this.meLoadedAt = Date.now();
    const stored = this.stored();
    if (stored && (stored.mustChangePassword === true) !== user.mustChangePassword) {
      this.save(sessionOf(stored, user));
    }
  }

  private save(session: StoredSession): void {
    this.storage.setItem(SESSION_KEY, JSON.stringify(session));
    this.stored.set(session);
    this.unreachable.set(false);
  }

  private clear(): void {
    this.storage.removeItem(SESSION_KEY);
    this.stored.set(null);
    this.me.set(null);
    this.signInPassword.set(null);
    this.unreachable.set(false);
  }

  private endLocally(url: string, queryParams: Record<string, string> = {}): void {
    this.clear();
    void this.router.navigate([url], { queryParams });
  }
}
