/**
 * `{name}` placeholders in operator-written templates. A template is checked on save against the
 * names its message kind fills in, so a typo (`{usename}`) is refused with a clear message instead
 * of reaching members as literal braces.
 */
const PLACEHOLDER = /\{([^{}]*)\}/g;

/** The placeholder names a template uses, in order of appearance. */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

/** An error message naming the first unknown placeholder, or null when all are known. */
export function unknownPlaceholder(template: string, allowed: readonly string[]): string | null {
  const unknown = placeholdersOf(template).find((name) => !allowed.includes(name));
  if (unknown === undefined) return null;
  const list = allowed.map((name) => `{${name}}`).join(', ');
  return `unknown placeholder {${unknown.slice(0, 40)}}; use ${list}`;
}

/** Fills every known placeholder; unknown ones (refused on save) stay as written. */
export function fillPlaceholders(template: string, values: Record<string, string>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(values, name) ? values[name]! : whole,
  );
}
