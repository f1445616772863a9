import type * as ContractsModule from '@usher/contracts';

type Contracts = typeof ContractsModule;
/** Every zod schema `@usher/contracts` exports (a type only: nothing is imported here). */
type SchemaName = {
  [K in keyof Contracts]: K extends `${string}Schema`
    ? Contracts[K] extends { parse: (value: unknown) => unknown }
      ? K
      : never
    : never;
}[keyof Contracts];

declare const ngDevMode: unknown;

/**
 * Dev and test builds parse replies with the contract schema (60-web.md §1 "data"), so a drift
 * between API and web shows up at once. Production skips it: `ngDevMode` is folded to `false`
 * there, which drops the dynamic import and keeps zod out of the bundle entirely.
 */
export async function checkReply<T>(schema: SchemaName, reply: T): Promise<T> {
  if (typeof ngDevMode !== 'undefined' && ngDevMode) {
    const contracts = await import('@usher/contracts');
    (contracts[schema] as { parse: (value: unknown) => unknown }).parse(reply);
  }
  return reply;
}

/** As `checkReply`, for a list reply: each item of `data` is parsed with the item schema. */
export async function checkPage<T extends { data: readonly unknown[] }>(
  itemSchema: SchemaName,
  reply: T,
): Promise<T> {
  if (typeof ngDevMode !== 'undefined' && ngDevMode) {
    const contracts = await import('@usher/contracts');
    const schema = contracts[itemSchema] as { parse: (value: unknown) => unknown };
    for (const item of reply.data) schema.parse(item);
  }
  return reply;
}
