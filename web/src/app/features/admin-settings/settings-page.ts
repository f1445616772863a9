import {
  ChangeDetectionStrategy,
  Component,
  type ElementRef,
  computed,
  effect,
  inject,
  input,
  untracked,
  viewChildren,
} from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { MatProgressBar } from '@angular/material/progress-bar';
import { MatProgressSpinner } from '@angular/material/progress-spinner';
import { MatOption, MatSelect } from '@angular/material/select';
import { Router } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { SettingGroup } from '@usher/contracts';
import { FormError } from '../../shared/form-error';
import { SubmitButton } from '../../shared/submit-button';
import { SettingField } from './setting-field';
import { SettingText } from './setting-text';
import { SettingsEditor } from './settings-editor';
import { sectionsOf } from './settings-logic';
import { TEXT_FIELD } from '../../shared/form-field';

/**
 * `/admin/settings?group=` (60-web.md §4.3): a group list (a select on phones), the group's
 * items in sections that fold, and a sticky Save / Discard / Test bar per group (issue 14).
 * State lives in `SettingsEditor`.
 */
@Component({
  selector: 'app-settings-page',
  imports: [
    MatButton,
    MatIcon,
    MatOption,
    MatProgressBar,
    MatProgressSpinner,
    MatSelect,
    TranslocoDirective,
    SettingField,
    FormError,
    SubmitButton,
    ...TEXT_FIELD,
  ],
  providers: [SettingsEditor],
  templateUrl: './settings-page.html',
  styleUrl: './settings-page.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class SettingsPage {
  protected readonly editor = inject(SettingsEditor);
  protected readonly text = inject(SettingText);
  private readonly router = inject(Router);
  /** `?group=`, bound by the router. */
  readonly group = input<string | undefined>();
  private readonly tabs = viewChildren<ElementRef<HTMLButtonElement>>('tab');
  /** The current group's items in foldable sections. */
  protected readonly sections = computed(() => {
    const current = this.editor.current();
    return current ? sectionsOf(current.items) : [];
  });

  constructor() {
    void this.editor.load().then(() => this.editor.select(this.group()));
    effect(() => {
      const group = this.group();
      untracked(() => this.editor.select(group));
    });
  }

  /** Whether leaving would lose edits (the route's `canDeactivate` asks first). */
  hasUnsavedChanges(): boolean {
    return this.editor.unsaved();
  }

  protected choose(group: SettingGroup): void {
    this.editor.select(group);
    void this.router.navigate([], {
      queryParams: { group },
      queryParamsHandling: 'merge',
      replaceUrl: true,
    });
  }

  /** Arrow keys, Home and End move between groups (WAI-ARIA tabs, vertical). */
  protected moveFocus(event: KeyboardEvent): void {
    const groups = this.editor.groups();
    const index = groups.findIndex((g) => g.group === this.editor.current()?.group);
    const last = groups.length - 1;
    const next =
      event.key === 'ArrowDown' || event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowUp' || event.key === 'ArrowLeft'
          ? index <= 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null || !groups[next]) return;
    event.preventDefault();
    this.choose(groups[next].group);
    this.tabs()[next]?.nativeElement.focus();
  }

  protected setRecipient(event: Event): void {
    this.editor.testRecipient.set((event.target as HTMLInputElement).value);
  }

  protected statusIcon(status: 'ok' | 'warn' | 'fail'): string {
    return status === 'ok' ? 'check_circle' : status === 'warn' ? 'warning' : 'cancel';
  }
}
