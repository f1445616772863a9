import { Injectable, Injector, inject } from '@angular/core';
import type { MatSnackBar } from '@angular/material/snack-bar';
import { TranslocoService } from '@jsverse/transloco';

/**
 * Snackbars by translation key, so no caller can show an untranslated sentence. The snack bar
 * (with the CDK overlay under it) loads on the first message, not with the app: the guards,
 * interceptors and error handler that use this are in the first bundle, and `/login` shows no
 * snackbar before the first sign-in (issue 14, initial JavaScript).
 */
@Injectable({ providedIn: 'root' })
export class Notifier {
  private readonly injector = inject(Injector);
  private readonly transloco = inject(TranslocoService);
  private snackBar?: Promise<MatSnackBar>;

  show(key: string, params?: Record<string, unknown>): void {
    const message = this.transloco.translate(key, params);
    void this.bar().then((bar) => bar.open(message, undefined, { duration: 5000 }));
  }

  /** A snackbar with one action; `onAction` runs when the action is taken. */
  offer(key: string, actionKey: string, onAction: () => void): void {
    const message = this.transloco.translate(key);
    const action = this.transloco.translate(actionKey);
    void this.bar().then((bar) => bar.open(message, action).onAction().subscribe(onAction));
  }

  private bar(): Promise<MatSnackBar> {
    this.snackBar ??= import('@angular/material/snack-bar').then((m) =>
      this.injector.get(m.MatSnackBar),
    );
    return this.snackBar;
  }
}
