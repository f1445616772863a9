// Stripe's error body: `{error: {type, message, param?, code?, doc_url?, request_log_url?}}`.

export type StripeErrorType =
  'invalid_request_error' | 'idempotency_error' | 'api_error' | 'card_error' | 'rate_limit_error';

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: StripeErrorType,
    message: string,
    readonly param?: string,
    readonly code?: string,
  ) {
    super(message);
  }

  toBody(requestId: string) {
    return {
      error: {
        ...(this.code
          ? {
              code: this.code,
              doc_url: `https://stripe.com/docs/error-codes/${this.code.replace(/_/g, '-')}`,
            }
          : {}),
        message: this.message,
        ...(this.param ? { param: this.param } : {}),
        request_log_url: `https://dashboard.stripe.com/test/logs/${requestId}`,
        type: this.type,
      },
    };
  }
}

export const invalid = (message: string, param?: string, code?: string) =>
  new StripeApiError(400, 'invalid_request_error', message, param, code);

export const missingParam = (param: string) =>
  invalid(`Missing required param: ${param}.`, param, 'parameter_missing');

export const unknownParam = (param: string) =>
  invalid(`Received unknown parameter: ${param}`, param, 'parameter_unknown');

export const noApiKey = () =>
  new StripeApiError(
    401,
    'invalid_request_error',
    'You did not provide an API key. You need to provide your API key in the Authorization ' +
      "header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See " +
      'https://stripe.com/docs/api#authentication for details, or we can help at ' +
      'https://support.stripe.com/.',
  );

/** Stripe masks all but the prefix and the last four characters of a refused key. */
export function invalidApiKey(key: string) {
  const prefix = /^(sk|rk|pk)_(test|live)_/.exec(key)?.[0] ?? '';
  const masked =
    key.length <= prefix.length + 4
      ? key
      : `${prefix}${'*'.repeat(key.length - prefix.length - 4)}${key.slice(-4)}`;
  return new StripeApiError(401, 'invalid_request_error', `Invalid API Key provided: ${masked}`);
}
