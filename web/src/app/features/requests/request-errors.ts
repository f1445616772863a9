/** Reading the `details` of the request routes' conflict errors (20-api.md §5). */

/** `details.summary.message` of ALREADY_IN_LIBRARY, when the API sent one. */
export function summaryMessage(details: unknown): string | undefined {
  const summary = (details as { summary?: { message?: unknown } } | undefined)?.summary;
  return typeof summary?.message === 'string' ? summary.message : undefined;
}

/** `details{requestId, status}` of REQUEST_EXISTS. */
export function existingOf(details: unknown): { requestId: string; status: string } | null {
  const { requestId, status } = (details ?? {}) as { requestId?: unknown; status?: unknown };
  return typeof requestId === 'string' && typeof status === 'string' ? { requestId, status } : null;
}
