import { parseStripeForm } from '../../src/stripe/index.js';

describe('Stripe form decoding', () => {
  it('should nest bracketed keys at depth five with indexed arrays', () => {
    const body =
      'mode=payment&line_items[0][price_data][product_data][metadata][sku]=p1' +
      '&line_items[1][quantity]=2&payment_method_types[0]=card&payment_method_types[1]=alipay';

    expect(parseStripeForm(body)).toEqual({
      mode: 'payment',
      line_items: [
        { price_data: { product_data: { metadata: { sku: 'p1' } } } },
        { quantity: '2' },
      ],
      payment_method_types: ['card', 'alipay'],
    });
  });

  it('should decode percent-encoded brackets and push values for empty brackets', () => {
    const body = 'expand%5B%5D=line_items&expand[]=payment_intent&metadata%5Bnote%5D=a%20b';

    expect(parseStripeForm(body)).toEqual({
      expand: ['line_items', 'payment_intent'],
      metadata: { note: 'a b' },
    });
  });
});
