/**
 * Suites that need a tool from outside node_modules (Chromium, helm, nginx, root and setpriv).
 * Such a suite is skipped on a developer's machine that lacks the tool, but CI installs every
 * tool first, so there a missing tool is a failure: a skip would turn a broken provisioning step
 * into a green run.
 */

/** Whether this run is CI's (`CI=true`, which `.ci/run` sets): missing tools then fail. */
export const toolsRequired = process.env.CI === 'true' || process.env.CI === '1';

/**
 * `describe` when `available`. Otherwise, on CI a suite whose single test fails naming what is
 * `missing`; elsewhere a skipped suite with the reason in its title, also written to stderr
 * because jest's summary does not list the titles of skipped suites.
 */
export function describeWhen(
  available: boolean,
  title: string,
  missing: string,
  body: () => void,
): void {
  if (available) {
    describe(title, body);
    return;
  }
  if (toolsRequired) {
    describe(title, () => {
      it(`needs ${missing}`, () => {
        throw new Error(`${missing} is required on CI (CI=true) but missing on this machine`);
      });
    });
    return;
  }
  const reason = `SKIPPED: needs ${missing}`;
  process.stderr.write(`${title} ${reason}\n`);
  describe(`${title} [${reason}]`, () => {
    it.skip(`needs ${missing}`, () => undefined);
  });
}
