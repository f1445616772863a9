// Parameter checks for POST /v1/checkout/sessions, in Stripe's words: unknown parameters,
// missing ones, bad integers, URLs, emails, currencies, metadata limits and the expires_at window.
import { invalid, missingParam, unknownParam } from './errors.js';
import type { FormObject, FormValue } from './form.js';

/** Lists below are written as space-separated words to keep them readable. */
const words = (text: string) => text.split(' ');

const TOP_LEVEL = words(
  'adaptive_pricing after_expiration allow_promotion_codes allowed_payment_method_types ' +
    'automatic_tax ' +
    'billing_address_collection branding_settings cancel_url client_reference_id ' +
    'consent_collection currency custom_fields custom_text customer customer_creation ' +
    'customer_email customer_update discounts excluded_payment_method_types expand ' +
    'expires_at invoice_creation line_items locale metadata mode name_collection ' +
    'optional_items payment_intent_data payment_method_collection ' +
    'payment_method_configuration payment_method_data payment_method_options ' +
    'payment_method_types permissions phone_number_collection redirect_on_completion ' +
    'return_url saved_payment_method_options setup_intent_data shipping_address_collection ' +
    'shipping_options submit_type subscription_data success_url tax_id_collection ui_mode ' +
    'wallet_options',
);
const LINE_ITEM = words(
  'adjustable_quantity dynamic_tax_rates metadata price price_data quantity tax_rates',
);
const PRICE_DATA = words(
  'currency product product_data recurring tax_behavior unit_amount unit_amount_decimal',
);
const PRODUCT_DATA = words('description images metadata name tax_code unit_label');
const PAYMENT_INTENT_DATA = words(
  'application_fee_amount capture_method description metadata on_behalf_of receipt_email ' +
    'setup_future_usage shipping statement_descriptor statement_descriptor_suffix ' +
    'transfer_data transfer_group',
);
export const CURRENCIES = words(
  'usd eur gbp cny hkd jpy sgd aud cad chf twd krw kwd bhd jod omr tnd',
);
/** Currencies Stripe counts without a minor unit (amounts are whole units). */
export const ZERO_DECIMAL = words(
  'bif clp djf gnf jpy kmf krw mga pyg rwf ugx vnd vuv xaf xof xpf',
);
/** Currencies with three decimals; Stripe takes their amounts only in multiples of 10. */
export const THREE_DECIMAL = words('bhd jod kwd omr tnd');

/** Digits after the decimal point of a currency's amounts, as Stripe counts them. */
export function currencyExponent(currency: string): number {
  if (ZERO_DECIMAL.includes(currency)) return 0;
  return THREE_DECIMAL.includes(currency) ? 3 : 2;
}
export const LOCALES = words(
  'auto bg cs da de el en en-GB es es-419 et fi fil fr fr-CA hr hu id it ja ko lt lv ms ' +
    'mt nb nl pl pt pt-BR ro ru sk sl sv th tr vi zh zh-HK zh-TW',
);
export const PAYMENT_METHOD_TYPES = words(
  'acss_debit affirm afterpay_clearpay alipay amazon_pay au_becs_debit bacs_debit ' +
    'bancontact blik boleto card cashapp customer_balance eps fpx giropay grabpay ideal ' +
    'kakao_pay klarna konbini kr_card link mobilepay multibanco naver_pay oxxo p24 payco ' +
    'paynow paypal pix promptpay revolut_pay samsung_pay sepa_debit sofort swish twint ' +
    'us_bank_account wechat_pay zip',
);

type Obj = Record<string, FormValue>;
const isObj = (v: FormValue | undefined): v is Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function checkKnown(value: FormValue | undefined, known: string[], prefix: string) {
  if (!isObj(value)) return;
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) throw unknownParam(prefix ? `${prefix}[${key}]` : key);
  }
}

export function integer(value: FormValue | undefined, param: string, min?: number) {
  if (typeof value !== 'string' || !/^-?\d+$/.test(value)) {
    throw invalid(
      `Invalid integer: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
      param,
      'parameter_invalid_integer',
    );
  }
  const n = Number(value);
  if (min !== undefined && n < min) {
    throw invalid(
      `This value must be greater than or equal to ${min}.`,
      param,
      'parameter_invalid_integer',
    );
  }
  return n;
}

function url(value: FormValue | undefined, param: string) {
  if (value === undefined || value === '') return;
  if (typeof value !== 'string' || !/^https?:\/\/[^\s]+$/i.test(value)) {
    throw invalid('Not a valid URL', param, 'url_invalid');
  }
}

function metadata(value: FormValue | undefined, param: string) {
  if (value === undefined || value === '') return;
  if (!isObj(value)) throw invalid('Invalid object', param, 'parameter_invalid_object');
  const entries = Object.entries(value);
  if (entries.length > 50) throw invalid('You can have up to 50 metadata keys.', param);
  for (const [key, v] of entries) {
    if (key.length > 40)
      throw invalid(
        `Metadata keys can have up to 40 characters. Invalid key: ${key}`,
        `${param}[${key}]`,
      );
    if (typeof v === 'string' && v.length > 500) {
      throw invalid(
        'Metadata values can have up to 500 characters, but you passed in a value that is ' +
          `${v.length} characters.`,
        `${param}[${key}]`,
      );
    }
  }
}

function lineItem(item: FormValue, i: number): { amount: number; currency: string } {
  const p = `line_items[${i}]`;
  checkKnown(item, LINE_ITEM, p);
  if (!isObj(item)) throw invalid('Invalid object', p, 'parameter_invalid_object');
  if (item.price === undefined && item.price_data === undefined) throw missingParam(`${p}[price]`);
  if (item.price !== undefined) {
    // Drift: the fake has no Price objects; Usher always sends price_data.
    throw invalid(`No such price: '${String(item.price)}'`, `${p}[price]`, 'resource_missing');
  }
  const data = item.price_data;
  checkKnown(data, PRICE_DATA, `${p}[price_data]`);
  if (!isObj(data)) throw invalid('Invalid object', `${p}[price_data]`, 'parameter_invalid_object');
  if (data.currency === undefined) throw missingParam(`${p}[price_data][currency]`);
  const currency = String(data.currency).toLowerCase();
  if (!CURRENCIES.includes(currency)) {
    throw invalid(
      `Invalid currency: ${String(data.currency)}. Stripe currently supports these ` +
        `currencies: ${CURRENCIES.join(', ')}`,
      `${p}[price_data][currency]`,
    );
  }
  if (data.product === undefined && data.product_data === undefined)
    throw missingParam(`${p}[price_data][product_data]`);
  checkKnown(data.product_data, PRODUCT_DATA, `${p}[price_data][product_data]`);
  if (isObj(data.product_data) && !data.product_data.name)
    throw missingParam(`${p}[price_data][product_data][name]`);
  if (data.unit_amount === undefined && data.unit_amount_decimal === undefined)
    throw missingParam(`${p}[price_data][unit_amount]`);
  const unit = integer(data.unit_amount, `${p}[price_data][unit_amount]`, 0);
  if (THREE_DECIMAL.includes(currency) && unit % 10 !== 0) {
    throw invalid(
      `Invalid amount: ${unit}. Amounts in ${currency.toUpperCase()} must be divisible by 10 ` +
        '(Stripe processes three-decimal currencies rounded to the nearest ten).',
      `${p}[price_data][unit_amount]`,
      'amount_invalid',
    );
  }
  if (item.quantity === undefined) throw missingParam(`${p}[quantity]`);
  const quantity = integer(item.quantity, `${p}[quantity]`, 1);
  return { amount: unit * quantity, currency };
}

export interface ValidatedSession {
  amount: number;
  currency: string;
  expiresAt: number;
  paymentMethodTypes: string[];
}

/** Validates create-session params; `nowSeconds` anchors the expires_at window. */
export function validateCreate(params: FormObject, nowSeconds: number): ValidatedSession {
  checkKnown(params, TOP_LEVEL, '');
  checkKnown(params.payment_intent_data, PAYMENT_INTENT_DATA, 'payment_intent_data');
  if (params.mode === undefined) throw missingParam('mode');
  if (!['payment', 'setup', 'subscription'].includes(String(params.mode))) {
    throw invalid('Invalid mode: must be one of payment, setup, or subscription', 'mode');
  }
  if (params.mode !== 'payment') {
    throw invalid(`The fake supports mode=payment only (got ${String(params.mode)})`, 'mode');
  }
  const items = params.line_items;
  if (!Array.isArray(items) || items.length === 0) throw missingParam('line_items');
  const priced = items.map(lineItem);
  if (new Set(priced.map((p) => p.currency)).size > 1) {
    throw invalid('All line items must have the same currency.', 'line_items');
  }
  url(params.success_url, 'success_url');
  url(params.cancel_url, 'cancel_url');
  const email = params.customer_email;
  if (
    email !== undefined &&
    (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
  ) {
    throw invalid(`Invalid email address: ${String(email)}`, 'customer_email', 'email_invalid');
  }
  metadata(params.metadata, 'metadata');
  if (isObj(params.payment_intent_data))
    metadata(params.payment_intent_data.metadata, 'payment_intent_data[metadata]');
  if (params.locale !== undefined && !LOCALES.includes(String(params.locale))) {
    throw invalid(`Invalid locale: must be one of ${LOCALES.join(', ')}`, 'locale');
  }
  // API versions from 2026-09-30.endive (stripe-node 23) replaced `payment_method_types` with
  // `allowed_payment_method_types`; the fake accepts either spelling.
  const param =
    params.allowed_payment_method_types === undefined
      ? 'payment_method_types'
      : 'allowed_payment_method_types';
  const types = params[param] === undefined ? ['card'] : params[param];
  if (!Array.isArray(types)) throw invalid('Invalid array', param);
  types.forEach((type, i) => {
    if (!PAYMENT_METHOD_TYPES.includes(String(type))) {
      throw invalid(
        `Invalid ${param}[${i}]: must be one of ${PAYMENT_METHOD_TYPES.join(', ')}`,
        `${param}[${i}]`,
      );
    }
  });
  const options = isObj(params.payment_method_options) ? params.payment_method_options : {};
  if (types.includes('wechat_pay') && !(isObj(options.wechat_pay) && options.wechat_pay.client)) {
    throw missingParam('payment_method_options[wechat_pay][client]');
  }
  let expiresAt = nowSeconds + 24 * 3600;
  if (params.expires_at !== undefined) {
    expiresAt = integer(params.expires_at, 'expires_at');
    if (expiresAt < nowSeconds + 30 * 60) {
      throw invalid(
        'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.',
        'expires_at',
      );
    }
    if (expiresAt > nowSeconds + 24 * 3600) {
      throw invalid(
        'The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.',
        'expires_at',
      );
    }
  }
  return {
    amount: priced.reduce((sum, p) => sum + p.amount, 0),
    currency: priced[0]!.currency,
    expiresAt,
    paymentMethodTypes: types.map(String),
  };
}
