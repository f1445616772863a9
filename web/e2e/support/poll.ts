/**
 * Reads `read()` until `done` accepts the value or `within` ms have passed, pausing `every` ms
 * between reads, and returns the last value read: the caller's own assertion on it then says
 * what was on screen (or what the server answered) when time ran out. For state that settles
 * asynchronously where no Playwright locator assertion fits (a whole table's values, a computed
 * style, a layout measure, a server outside the page).
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  { within, every }: { within: number; every: number },
): Promise<T> {
  const deadline = Date.now() + within;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, every));
    value = await read();
  }
  return value;
}
