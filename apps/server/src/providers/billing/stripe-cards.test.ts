import { billingMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import {
  customerWithCard,
  fake,
  newCustomer,
  only,
  stripe,
  subscriptionOf,
  useFakeStripe,
} from './stripe.test-helpers.ts';

/** Contract tests of the Stripe provider: cards (SetupIntent, attach, default, detach, ownership). */

useFakeStripe();

describe('cards', () => {
  it('creates an off-session card SetupIntent and returns its client secret', async () => {
    const customerId = await newCustomer();
    fake.clear();
    const { clientSecret } = await stripe.createSetupIntent(customerId);
    expect(clientSecret).toMatch(/^seti_\w+_secret_\w+$/);
    expect(only('POST', '/v1/setup_intents').body).toEqual({
      customer: customerId,
      usage: 'off_session',
      allowed_payment_method_types: ['card'],
    });
  });

  it('attaches a card, makes the first one the default, and lists brand, last4, expiry and default', async () => {
    const customerId = await newCustomer();
    const first = fake.addCard(null, { brand: 'visa', last4: '4242', exp_month: 4, exp_year: 2031 });
    fake.clear();
    await stripe.attachPaymentMethod(customerId, first);
    expect(only('POST', `/v1/payment_methods/${first}/attach`).body).toEqual({ customer: customerId });
    expect(only('POST', `/v1/customers/${customerId}`).body).toEqual({
      invoice_settings: { default_payment_method: first },
    });

    // The second card, already attached by the SetupIntent Stripe Elements confirmed: no second attach.
    const second = fake.addCard(customerId, {
      brand: 'mastercard',
      last4: '4444',
      exp_month: 1,
      exp_year: 2030,
    });
    fake.clear();
    await stripe.attachPaymentMethod(customerId, second);
    expect(fake.find('POST', `/v1/payment_methods/${second}/attach`)).toHaveLength(0);
    expect(fake.find('POST', `/v1/customers/${customerId}`)).toHaveLength(0);

    expect(await stripe.listPaymentMethods(customerId)).toEqual([
      { id: second, brand: 'mastercard', last4: '4444', exp_month: 1, exp_year: 2030, isDefault: false },
      { id: first, brand: 'visa', last4: '4242', exp_month: 4, exp_year: 2031, isDefault: true },
    ]);
    const listing = fake.find('GET', '/v1/payment_methods').at(-1)!;
    expect(listing.query).toMatchObject({ customer: customerId, type: 'card' });
  });

  it('sets the default on the customer and on the live subscription, so renewals charge it', async () => {
    const { customerId, card } = await customerWithCard();
    await stripe.changePlan(customerId, { plan: 'starter', billingPeriod: 'monthly' }, 'k-default');
    const other = fake.addCard(customerId, { last4: '1881' });
    fake.clear();
    await stripe.setDefaultPaymentMethod(customerId, other);
    expect(only('POST', `/v1/customers/${customerId}`).body).toEqual({
      invoice_settings: { default_payment_method: other },
    });
    const [subscription] = subscriptionOf(customerId);
    expect(only('POST', `/v1/subscriptions/${subscription!.id}`).body).toEqual({
      default_payment_method: other,
    });
    const methods = await stripe.listPaymentMethods(customerId);
    expect(methods.find((method) => method.isDefault)?.id).toBe(other);
    expect(methods.find((method) => method.id === card)?.isDefault).toBe(false);
  });

  it('detaches the default card and promotes the newest remaining card', async () => {
    const customerId = await newCustomer();
    const oldest = fake.addCard(customerId, { last4: '0001' });
    const newest = fake.addCard(customerId, { last4: '0003' });
    const middle = fake.addCard(customerId, { last4: '0002' });
    fake.cards.get(middle)!.created = fake.cards.get(oldest)!.created + 1;
    fake.cards.get(newest)!.created = fake.cards.get(oldest)!.created + 2;
    await stripe.setDefaultPaymentMethod(customerId, oldest);
    fake.clear();
    await stripe.detachPaymentMethod(customerId, oldest);
    expect(only('POST', `/v1/payment_methods/${oldest}/detach`)).toBeDefined();
    expect(only('POST', `/v1/customers/${customerId}`).body).toEqual({
      invoice_settings: { default_payment_method: newest },
    });
    const methods = await stripe.listPaymentMethods(customerId);
    expect(methods.map((method) => [method.last4, method.isDefault])).toEqual([
      ['0003', true],
      ['0002', false],
    ]);

    // Removing a card that is not the default leaves the default alone.
    fake.clear();
    await stripe.detachPaymentMethod(customerId, middle);
    expect(fake.find('POST', `/v1/customers/${customerId}`)).toHaveLength(0);
    // Removing the last card clears the default.
    await stripe.detachPaymentMethod(customerId, newest);
    expect(only('POST', `/v1/customers/${customerId}`).rawBody).toBe(
      'invoice_settings[default_payment_method]=',
    );
    expect(await stripe.listPaymentMethods(customerId)).toEqual([]);
  });

  it("refuses another customer's card and unknown cards as not found", async () => {
    const owner = await newCustomer();
    const stranger = await newCustomer();
    const strangersCard = fake.addCard(stranger);
    for (const action of [
      () => stripe.setDefaultPaymentMethod(owner, strangersCard),
      () => stripe.detachPaymentMethod(owner, strangersCard),
      () => stripe.attachPaymentMethod(owner, strangersCard),
      () => stripe.detachPaymentMethod(owner, 'pm_does_not_exist'),
    ]) {
      await expect(action()).rejects.toMatchObject({
        name: 'PaymentError',
        code: 'not_found',
        message: billingMessages.paymentMethodNotFound,
      });
    }
    expect(fake.find('POST', `/v1/payment_methods/${strangersCard}/detach`)).toHaveLength(0);
    expect(fake.cards.get(strangersCard)!.customer).toBe(stranger);
  });
});
