import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { encode } from 'uqr';

/**
 * A QR code of `value` as inline SVG (uqr encodes; one path draws the dark modules), so a phone
 * can pick up the server address from the screen. Decoration for the eye: the address itself is
 * printed beside it, so the image is hidden from assistive technology unless labelled.
 */
@Component({
  selector: 'app-qr-code',
  template: `
    <svg
      [attr.viewBox]="'0 0 ' + qr().size + ' ' + qr().size"
      shape-rendering="crispEdges"
      [attr.role]="label() ? 'img' : null"
      [attr.aria-label]="label() || null"
      [attr.aria-hidden]="label() ? null : 'true'"
    >
      <rect [attr.width]="qr().size" [attr.height]="qr().size" fill="#fff" />
      <path [attr.d]="qr().path" fill="#000" />
    </svg>
  `,
  styles: `
    :host {
      display: inline-block;
      width: 160px;
      height: 160px;
      border-radius: 8px;
      overflow: hidden;
    }
    svg {
      display: block;
      width: 100%;
      height: 100%;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class QrCode {
  readonly value = input.required<string>();
  /** The accessible name; none when the value is printed beside the code. */
  readonly label = input('');
  protected readonly qr = computed(() => qrPath(this.value()));
}

/** The SVG path of `value`'s QR code (error correction M, a 2-module quiet zone). */
export function qrPath(value: string): { size: number; path: string; modules: boolean[][] } {
  const { data, size } = encode(value, { ecc: 'M', border: 2 });
  let path = '';
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return { size, path, modules: data };
}
