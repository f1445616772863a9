import { type Signal, inject, signal } from '@angular/core';
import { ErrorTexts, type ErrorText } from '../core/api/error-text';
import { Notifier } from '../core/notifier';

/** How one run of an action ends, beyond busy and the error. */
export interface RunOptions {
  /** Translation key of the snackbar shown when the work succeeds. */
  done?: string;
  params?: Record<string, unknown>;
  /**
   * Takes over a failure the caller shows elsewhere (a code on its field, a dialog of its own):
   * returns true when it did, and the error line then stays empty.
   */
  handle?: (error: unknown) => boolean;
  /** Runs once the work has ended, whether it succeeded or not (reload what it changed). */
  after?: () => void;
}

/**
 * The state of a button's, card's or dialog's action (60-web.md §1 "An action shows a spinner in
 * its own button"): whether it is running, and its failure as the shared error body's message
 * and reference (`ErrorTexts`), shown by `app-form-error`.
 */
export interface Action {
  readonly busy: Signal<boolean>;
  readonly error: Signal<ErrorText | null>;
  /**
   * Runs `work` unless this action is already running: clears the error, sets busy, and on
   * success shows `done`; a failure becomes `error`. Resolves whether the work succeeded.
   */
  run(work: () => Promise<unknown>, options?: RunOptions): Promise<boolean>;
  /**
   * A form's submit: an invalid form shows its field errors (every field touched) and nothing
   * runs; a valid one runs `work` as `run` does.
   */
  submit(form: SubmittedForm, work: () => Promise<unknown>, options?: RunOptions): Promise<boolean>;
  /** Shows a failure that did not come from `run` (a check before the call). */
  fail(error: unknown): void;
  /** Shows the page's own wording for a failure (a `handle` that explains it better). */
  show(text: ErrorText): void;
  /** Empties the error line (the form was changed, the dialog reopened). */
  clear(): void;
}

/** What `Action.submit` needs of a form (a `FormGroup`). */
export interface SubmittedForm {
  readonly invalid: boolean;
  markAllAsTouched(): void;
}

/** An `Action` for a component; call it in a field initialiser (it injects). */
export function action(): Action {
  const errors = inject(ErrorTexts);
  const notifier = inject(Notifier);
  const busy = signal(false);
  const error = signal<ErrorText | null>(null);
  const act: Action = {
    busy: busy.asReadonly(),
    error: error.asReadonly(),
    submit(form, work, options) {
      if (form.invalid || busy()) {
        form.markAllAsTouched();
        return Promise.resolve(false);
      }
      return act.run(work, options);
    },
    async run(work, options = {}) {
      if (busy()) return false;
      busy.set(true);
      error.set(null);
      let ok = false;
      try {
        await work();
        ok = true;
      } catch (failure) {
        // Every refusal of the API (and a dropped connection) ends here: it is the action's
        // outcome to show, not a bug to report, so it is not rethrown.
        if (!options.handle?.(failure)) error.set(errors.describe(failure));
      } finally {
        busy.set(false);
      }
      if (ok && options.done) {
        if (options.params) notifier.show(options.done, options.params);
        else notifier.show(options.done);
      }
      options.after?.();
      return ok;
    },
    fail: (failure) => error.set(errors.describe(failure)),
    show: (text) => error.set(text),
    clear: () => error.set(null),
  };
  return act;
}

/**
 * An `Action` for a list whose rows each have buttons (approve, cancel, run now): one row runs at
 * a time, `key` names it (its buttons show the spinner), and every button pressed meanwhile —
 * the second click of a double click included — is ignored (issue 36).
 */
export interface RowAction extends Action {
  /** The key of the row whose action is running, or null. */
  readonly key: Signal<string | null>;
  /** Runs `work` for the row `key` unless any row's action is running (`Action.run`). */
  runFor(key: string, work: () => Promise<unknown>, options?: RunOptions): Promise<boolean>;
}

/** A `RowAction` for a component; call it in a field initialiser (it injects). */
export function rowAction(): RowAction {
  const base = action();
  const key = signal<string | null>(null);
  return {
    ...base,
    key: key.asReadonly(),
    async runFor(row, work, options) {
      if (base.busy()) return false;
      key.set(row);
      try {
        return await base.run(work, options);
      } finally {
        key.set(null);
      }
    },
  };
}
