import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { MatAnchor } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import { SessionStore } from '../../core/session/session-store';

/**
 * 503 `NOT_CONFIGURED` with `details.system: "playback_reporting"`: what the plugin is and how
 * to install it, in place of an empty chart or list; admins also get the settings link.
 */
@Component({
  selector: 'app-plugin-notice',
  imports: [MatAnchor, MatIcon, RouterLink, TranslocoDirective],
  template: `
    <section class="notice" data-testid="plugin-missing" role="status" *transloco="let t">
      <mat-icon aria-hidden="true" svgIcon="warning" />
      <div>
        <h2>{{ t('portrait.plugin.title') }}</h2>
        <p>{{ t('portrait.plugin.body') }}</p>
        <ol>
          <li>{{ t('portrait.plugin.step1') }}</li>
          <li>{{ t('portrait.plugin.step2') }}</li>
          <li>{{ t('portrait.plugin.step3') }}</li>
        </ol>
        @if (isAdmin()) {
          <a
            mat-stroked-button
            routerLink="/admin/settings"
            [queryParams]="{ group: 'media_server' }"
            >{{ t('portrait.openSettings') }}</a
          >
        }
      </div>
    </section>
  `,
  styles: `
    .notice {
      display: flex;
      gap: 16px;
      padding: 16px;
      border-radius: 16px;
      background: var(--usher-warning-container);
      color: var(--usher-on-warning-container);
    }
    h2 {
      margin: 0 0 8px;
      font: var(--mat-sys-title-medium);
    }
    p,
    ol {
      margin: 0 0 12px;
    }
    a {
      min-height: 48px;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PluginNotice {
  protected readonly isAdmin = inject(SessionStore).isAdmin;
}
