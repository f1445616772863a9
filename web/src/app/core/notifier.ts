import { Injectable, inject } from '@angular/core';
import { MatSnackBar } from '@angular/material/snack-bar';
import { TranslocoService } from '@jsverse/transloco';

/** Snackbars by translation key, so no caller can show an untranslated sentence. */
@Injectable({ providedIn: 'root' })
export class Notifier {
  private readonly snackBar = inject(MatSnackBar);
  private readonly transloco = inject(TranslocoService);

  show(key: string, params?: Record<string, unknown>): void {
    this.snackBar.open(this.transloco.translate(key, params), undefined, { duration: 5000 });
  }

  /** A snackbar with one action; resolves when the action is taken. */
  offer(key: string, actionKey: string, onAction: () => void): void {
    const ref = this.snackBar.open(
      this.transloco.translate(key),
      this.transloco.translate(actionKey),
    );
    ref.onAction().subscribe(onAction);
  }
}
