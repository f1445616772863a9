import { Clipboard } from '@angular/cdk/clipboard';
import { ChangeDetectionStrategy, Component, booleanAttribute, inject, input } from '@angular/core';
import { MatAnchor, MatButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { TranslocoDirective } from '@jsverse/transloco';
import { Notifier } from '../../core/notifier';
import { QrCode } from './qr-code';

/**
 * The media server's public address with Copy and Open (the overview's server card and the
 * setup flow), and with `qr` a QR code a phone can scan.
 */
@Component({
  selector: 'app-server-address',
  imports: [MatAnchor, MatButton, MatIcon, TranslocoDirective, QrCode],
  template: `
    <div class="address" [class.with-qr]="qr()" *transloco="let t">
      @if (qr()) {
        <app-qr-code [value]="url()" data-testid="server-qr" />
      }
      <div class="text">
        <span class="label" [id]="labelId">{{ t('mediaHome.server.address') }}</span>
        <code data-testid="server-url" [attr.aria-labelledby]="labelId">{{ url() }}</code>
        <div class="actions">
          <button mat-stroked-button type="button" data-testid="server-copy" (click)="copy()">
            <mat-icon aria-hidden="true" svgIcon="content_copy" />{{ t('common.copy') }}
          </button>
          <a mat-button [href]="url()" target="_blank" rel="noopener noreferrer">
            <mat-icon aria-hidden="true" svgIcon="open_in_new" />{{ t('mediaHome.server.open') }}
          </a>
        </div>
        @if (qr()) {
          <p class="hint">{{ t('welcome.connect.qrHint') }}</p>
        }
      </div>
    </div>
  `,
  styles: `
    .address {
      display: flex;
      gap: 16px;
      width: 100%;
      align-items: flex-start;
    }
    .text {
      display: flex;
      flex-direction: column;
      gap: 6px;
      flex: 1;
      min-width: 0;
    }
    .label {
      font: var(--mat-sys-label-medium);
      color: var(--mat-sys-on-surface-variant);
    }
    code {
      padding: 8px 12px;
      border-radius: 8px;
      background: var(--mat-sys-surface-container-high);
      font-family: ui-monospace, 'Cascadia Mono', 'DejaVu Sans Mono', monospace;
      font-size: 0.95em;
      overflow-wrap: anywhere;
    }
    .actions {
      display: flex;
      flex-wrap: wrap;
      gap: 8px;
    }
    .hint {
      margin: 0;
      font: var(--mat-sys-body-small);
      color: var(--mat-sys-on-surface-variant);
    }
    app-qr-code {
      flex: none;
      border: 1px solid var(--mat-sys-outline-variant);
    }
    @media (max-width: 599.98px) {
      .address.with-qr {
        flex-direction: column;
        align-items: center;
      }
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ServerAddress {
  private static next = 0;
  private readonly clipboard = inject(Clipboard);
  private readonly notifier = inject(Notifier);
  readonly url = input.required<string>();
  readonly qr = input(false, { transform: booleanAttribute });
  protected readonly labelId = `server-address-label-${ServerAddress.next++}`;

  protected copy(): void {
    if (this.clipboard.copy(this.url())) this.notifier.show('common.copied');
  }
}
