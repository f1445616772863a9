import { AppError } from '../../../errors/app-error.js';
import { discover, discoveryUrlOf, readSsoSettings } from '../../../integrations/oidc/index.js';
import { fail, ok, runCheck, warn, type CheckResult, type GroupTest } from './check.js';

const REASONS: Record<string, CheckResult['reason']> = {
  unreachable: 'network',
  timeout: 'timeout',
  discovery: 'invalid_response',
  issuer_mismatch: 'invalid_response',
  insecure: 'tls',
};

function asFailure(err: unknown): CheckResult {
  if (err instanceof AppError) {
    const reason = (err.details as { reason?: string } | undefined)?.reason ?? '';
    return fail(err.message, REASONS[reason] ?? 'invalid_response');
  }
  throw err;
}

/**
 * `sso` (docs/sso.md): the discovery document (from the issuer or the explicit URL, naming the
 * configured issuer), the JWKS it points to (at least one signing key), the client id, and the
 * redirect URI that must be registered at the provider.
 */
export const testSso: GroupTest = async (ctx) => {
  const s = await readSsoSettings(ctx.settings);
  const checks = [];
  let jwksUri: string | null = null;
  checks.push(
    await runCheck('discovery', ctx, async () => {
      if (!s.issuer) return fail('OIDC_ISSUER_URL is not set', 'not_configured');
      try {
        const config = await discover(s, ctx.timeoutMs);
        const meta = config.serverMetadata();
        jwksUri = meta.jwks_uri ?? null;
        const pkce = meta.code_challenge_methods_supported;
        if (Array.isArray(pkce) && !pkce.includes('S256')) {
          return fail('The provider does not offer PKCE with S256', 'rejected');
        }
        return ok(`Issuer ${meta.issuer} found at ${discoveryUrlOf(s)}`);
      } catch (err) {
        return asFailure(err);
      }
    }),
  );
  checks.push(
    await runCheck('jwks', ctx, async () => {
      if (!jwksUri) return fail('Not run: no discovery document', 'not_run');
      let response: Response;
      try {
        response = await fetch(jwksUri, { signal: AbortSignal.timeout(ctx.timeoutMs) });
      } catch (err) {
        return fail(`The JWKS could not be fetched (${(err as Error).name})`, 'network');
      }
      if (!response.ok) {
        return fail(
          `The JWKS answered HTTP ${response.status}`,
          response.status >= 500 ? 'http_5xx' : 'http_4xx',
        );
      }
      const body = (await response.json().catch(() => null)) as { keys?: { use?: string }[] };
      const keys = Array.isArray(body?.keys) ? body.keys.filter((k) => k.use !== 'enc') : [];
      if (keys.length === 0) return fail('The JWKS holds no signing key', 'invalid_response');
      return ok(`${keys.length} signing key(s) published`);
    }),
  );
  checks.push(
    await runCheck('client', ctx, async () =>
      s.clientId
        ? ok(`Client ${s.clientId}${s.clientSecret ? ' with a secret' : ' (public, PKCE only)'}`)
        : fail('OIDC_CLIENT_ID is not set', 'not_configured'),
    ),
  );
  checks.push(
    await runCheck('redirect_uri', ctx, async () => {
      if (!s.redirectUri) return fail('PUBLIC_WEB_URL is not set', 'not_configured');
      if (
        !s.redirectUri.startsWith('https://') &&
        !/^http:\/\/(localhost|127\.0\.0\.1)[:/]/.test(s.redirectUri)
      ) {
        return warn(`Register ${s.redirectUri} at the provider; most providers require https`);
      }
      return ok(`Register ${s.redirectUri} at the provider`);
    }),
  );
  return checks;
};
