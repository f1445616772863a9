import { HttpClient } from '@angular/common/http';
import { Injectable, inject, signal } from '@angular/core';
import type { SettingGroup, SettingsTestReply } from '@usher/contracts';
import { firstValueFrom } from 'rxjs';
import { checkReply } from './check-reply';

/** The outcome of a group's last connection test of its *saved* settings. */
export interface LastConnectionTest {
  /** ISO instant the test finished. */
  at: string;
  /** The worst check: `fail` beats `warn` beats `ok`. */
  status: 'ok' | 'warn' | 'fail';
  /** The first check that was not ok (already free of secrets, 30-settings.md §6). */
  message: string | null;
}

type LastTests = Partial<Record<SettingGroup, LastConnectionTest>>;

/** localStorage key of the remembered results. */
export const CONNECTION_TESTS_KEY = 'usher.connectionTests';

/** The worst status of a test reply and the message that explains it. */
export function summarise(reply: SettingsTestReply, at: Date): LastConnectionTest {
  const fail = reply.checks.find((c) => c.status === 'fail');
  const warn = reply.checks.find((c) => c.status === 'warn');
  const worst = fail ?? warn;
  return { at: at.toISOString(), status: worst?.status ?? 'ok', message: worst?.message ?? null };
}

function read(): LastTests {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(CONNECTION_TESTS_KEY) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as LastTests) : {};
  } catch {
    return {};
  }
}

/**
 * The last connection test of each settings group, for the admin's setup checklist (issue 18).
 * `POST /admin/settings/:group/test` has no side effects but outbound calls (20-api.md), so the
 * API keeps no result; this browser remembers the last test of the saved settings it ran, from
 * the checklist or from the settings page (tests of an unsaved draft are not recorded: they say
 * nothing about the configuration in use). See docs/media.md "Setup checklist".
 */
@Injectable({ providedIn: 'root' })
export class ConnectionTests {
  private readonly http = inject(HttpClient);
  readonly last = signal<LastTests>(read());

  /** Remembers a test of the group's saved settings. */
  record(group: SettingGroup, reply: SettingsTestReply, at = new Date()): void {
    const next = { ...this.last(), [group]: summarise(reply, at) };
    this.last.set(next);
    try {
      localStorage.setItem(CONNECTION_TESTS_KEY, JSON.stringify(next));
    } catch {
      // Storage full or blocked: the result still shows until the page is left.
    }
  }

  /** Tests the group's saved settings now, and remembers the result. */
  async run(group: SettingGroup): Promise<LastConnectionTest> {
    const reply = await checkReply(
      'settingsTestReplySchema',
      await firstValueFrom(
        this.http.post<SettingsTestReply>(`/api/v1/admin/settings/${group}/test`, {}),
      ),
    );
    this.record(group, reply);
    return this.last()[group]!;
  }
}
