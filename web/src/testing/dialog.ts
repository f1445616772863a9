import type { MatDialog } from '@angular/material/dialog';

/**
 * A `MatDialog` stand-in whose dialogs close at once with `next()`'s answer (the test's script
 * of confirmations and prompts); `open` is a mock, so a test can check what was asked.
 */
export function scriptedDialog(
  next: (config: { data?: unknown }) => unknown,
): MatDialog & { open: jest.Mock } {
  return {
    open: jest.fn((_component: unknown, config: { data?: unknown } = {}) => {
      const answer = next(config);
      return {
        afterClosed: () => ({ subscribe: (o: { next: (v: unknown) => void }) => o.next(answer) }),
      };
    }),
  } as unknown as MatDialog & { open: jest.Mock };
}
