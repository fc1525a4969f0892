import { screen, waitFor, within } from '@testing-library/react';
import { billingMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import {
  type BillingState,
  configWithBilling,
  makeCard,
  makeSubscription,
} from '../../../test/billing-fixtures.ts';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import type { RecordedCall } from '../../../test/mock-api.ts';
import type { renderApp } from '../../../test/render-app.tsx';
import {
  addCardForm,
  cardRow,
  expectToast,
  openBillingTab,
  toastRegion,
} from './billing-tab.test-helpers.tsx';

describe('payment methods', () => {
  const visa = makeCard();
  const mastercard = makeCard({
    id: 'pm_mc',
    brand: 'mastercard',
    last4: '4444',
    exp_month: 11,
    exp_year: 2032,
    isDefault: false,
  });

  it('list brand, masked number, expiry and the default badge', async () => {
    await openBillingTab({ billing: { paymentMethods: [visa, mastercard] } });
    const first = cardRow('Visa •••• 4242');
    expect(within(first).getByText('Expires 04/31')).toBeInTheDocument();
    expect(within(first).getByText('Default')).toBeInTheDocument();
    expect(within(first).queryByRole('button', { name: /Set as default/ })).not.toBeInTheDocument();
    const second = cardRow('Mastercard •••• 4444');
    expect(within(second).getByText('Expires 11/32')).toBeInTheDocument();
    expect(within(second).queryByText('Default')).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Add a card' })).not.toBeInTheDocument();
  });

  it('set a card as default, then email the owner', async () => {
    const { app, api } = await openBillingTab({
      billing: { paymentMethods: [visa, mastercard] },
      handlers: () => ({
        'POST /stripe/payment-methods/default': {
          body: {
            success: true,
            message: billingMessages.defaultPaymentMethodUpdated,
            paymentMethods: [
              { ...visa, isDefault: false },
              { ...mastercard, isDefault: true },
            ],
          },
        },
      }),
    });
    await app.user.click(
      within(cardRow('Mastercard •••• 4444')).getByRole('button', { name: /Set as default/ }),
    );
    await expectToast(billingMessages.defaultPaymentMethodUpdated);
    expect(api.callsTo('POST /stripe/payment-methods/default')[0]!.body).toEqual({
      paymentMethodId: 'pm_mc',
    });
    expect(within(cardRow('Mastercard •••• 4444')).getByText('Default')).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('POST /notifications/billing-update')).toHaveLength(1));
  });

  it('say Update Failed when setting the default fails', async () => {
    const { app } = await openBillingTab({
      billing: { paymentMethods: [visa, mastercard] },
      handlers: () => ({ 'POST /stripe/payment-methods/default': errorAnswer(500) }),
    });
    await app.user.click(
      within(cardRow('Mastercard •••• 4444')).getByRole('button', { name: /Set as default/ }),
    );
    await expectToast(billingMessages.setDefaultPaymentMethodFailed);
    expect(within(toastRegion()).getByText('Update Failed')).toBeInTheDocument();
  });

  it('delete a card after confirming', async () => {
    const { app, api } = await openBillingTab({
      billing: { paymentMethods: [visa, mastercard] },
      handlers: () => ({
        'DELETE /stripe/payment-methods/pm_mc': {
          body: { success: true, message: billingMessages.paymentMethodDeleted, paymentMethods: [visa] },
        },
      }),
    });
    await app.user.click(within(cardRow('Mastercard •••• 4444')).getByRole('button', { name: /Delete/ }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Card' });
    expect(within(dialog).getByText('Mastercard •••• 4444')).toBeInTheDocument();
    await app.user.click(within(dialog).getByRole('button', { name: 'Delete Card' }));
    await expectToast(billingMessages.paymentMethodDeleted);
    expect(screen.queryByRole('listitem', { name: 'Mastercard •••• 4444' })).not.toBeInTheDocument();
    expect(api.callsTo('DELETE /stripe/payment-methods/pm_mc')).toHaveLength(1);
    await waitFor(() => expect(api.callsTo('POST /notifications/billing-update')).toHaveLength(1));
  });

  it('warn before deleting the only card of a paid plan, and say Delete Failed when it fails', async () => {
    const { app } = await openBillingTab({
      user: makeUser({ subscriptionPlan: 'starter', subscriptionStatus: 'active' }),
      billing: { paymentMethods: [visa], subscription: makeSubscription() },
      handlers: () => ({ 'DELETE /stripe/payment-methods/pm_visa': errorAnswer(500) }),
    });
    await app.user.click(within(cardRow('Visa •••• 4242')).getByRole('button', { name: /Delete/ }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Card' });
    expect(within(dialog).getByText(/This is your only card/)).toBeInTheDocument();
    await app.user.click(within(dialog).getByRole('button', { name: 'Delete Card' }));
    await expectToast(billingMessages.deletePaymentMethodFailed);
    expect(within(toastRegion()).getByText('Delete Failed')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Delete Card' })).toBeInTheDocument();
  });

  it('toast Loading Error when the billing information cannot be loaded', async () => {
    await openBillingTab({ handlers: () => ({ 'GET /stripe/payment-methods': errorAnswer(500) }) });
    await expectToast(billingMessages.loadBillingFailed);
    expect(within(toastRegion()).getByText('Loading Error')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('adding a card on local billing (test mode)', () => {
  const confirmed: RecordedCall[] = [];
  const localHandlers = (decline?: string) => (state: BillingState) => ({
    'POST /stripe/setup-intent': { body: { success: true, clientSecret: 'seti_local_secret' } },
    'POST /billing/local/setup-intents/confirm': (call: RecordedCall) => {
      confirmed.push(call);
      return decline ? errorAnswer(402, decline) : { body: { success: true, paymentMethodId: 'pm_new' } };
    },
    'POST /stripe/payment-methods': () => {
      state.paymentMethods = [makeCard({ id: 'pm_new' })];
      return {
        body: {
          success: true,
          message: billingMessages.paymentMethodAdded,
          paymentMethods: state.paymentMethods,
        },
      };
    },
  });

  async function fillCard(app: ReturnType<typeof renderApp>, number: string) {
    const form = addCardForm();
    await app.user.type(within(form).getByLabelText('Card number'), number);
    await app.user.type(within(form).getByLabelText('Expiry (MM/YY)'), '1234');
    await app.user.type(within(form).getByLabelText('CVC'), '123');
    return form;
  }

  it('is labelled test mode and lists the test cards', async () => {
    await openBillingTab();
    const form = addCardForm();
    expect(within(form).getByText('Test mode')).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: /4242 4242 4242 4242/ })).toBeInTheDocument();
    expect(
      within(form).getByRole('button', { name: /4000 0000 0000 0002 \(Declined\)/ }),
    ).toBeInTheDocument();
  });

  it('saves a test card: setup intent → local confirmation → attach → billing-update email', async () => {
    confirmed.length = 0;
    const { app, api } = await openBillingTab({ handlers: localHandlers() });
    expect(screen.getByText('No cards on file yet. Add one to choose a paid plan.')).toBeInTheDocument();
    const form = await fillCard(app, '4242424242424242');
    expect(within(form).getByLabelText('Card number')).toHaveValue('4242 4242 4242 4242');
    expect(within(form).getByLabelText('Expiry (MM/YY)')).toHaveValue('12/34');
    await app.user.click(within(form).getByRole('button', { name: 'Save Card' }));

    await expectToast(billingMessages.paymentMethodAdded);
    expect(confirmed[0]!.body).toEqual({
      clientSecret: 'seti_local_secret',
      number: '4242424242424242',
      expMonth: 12,
      expYear: 2034,
      cvc: '123',
    });
    expect(api.callsTo('POST /stripe/payment-methods')[0]!.body).toEqual({ paymentMethodId: 'pm_new' });
    expect(cardRow('Visa •••• 4242')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Add a card' })).not.toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('POST /notifications/billing-update')).toHaveLength(1));
    const order = api.calls
      .map((call) => `${call.method} ${call.path}`)
      .filter((key) => key.startsWith('POST'));
    expect(order).toEqual([
      'POST /stripe/setup-intent',
      'POST /billing/local/setup-intents/confirm',
      'POST /stripe/payment-methods',
      'POST /notifications/billing-update',
    ]);
  });

  it('fills the number from a test card button', async () => {
    const { app } = await openBillingTab();
    const form = addCardForm();
    await app.user.click(within(form).getByRole('button', { name: /5555 5555 5555 4444/ }));
    expect(within(form).getByLabelText('Card number')).toHaveValue('5555 5555 5555 4444');
    expect(within(form).getByLabelText('Expiry (MM/YY)')).toHaveFocus();
  });

  it("shows a decline in the server's words and saves nothing", async () => {
    const { app, api } = await openBillingTab({ handlers: localHandlers('Your card was declined.') });
    const form = await fillCard(app, '4000000000000002');
    await app.user.click(within(form).getByRole('button', { name: 'Save Card' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Your card was declined.');
    await expectToast('Your card was declined.');
    expect(api.callsTo('POST /stripe/payment-methods')).toHaveLength(0);
    expect(api.callsTo('POST /notifications/billing-update')).toHaveLength(0);
  });

  it('refuses an expiry in the past (01/20) before any call', async () => {
    const { app, api } = await openBillingTab({ handlers: localHandlers() });
    const form = addCardForm();
    await app.user.type(within(form).getByLabelText('Card number'), '4242424242424242');
    await app.user.type(within(form).getByLabelText('Expiry (MM/YY)'), '0120');
    await app.user.type(within(form).getByLabelText('CVC'), '123');
    await app.user.click(within(form).getByRole('button', { name: 'Save Card' }));
    expect(await within(form).findByText(billingMessages.expiredCard)).toBeInTheDocument();
    expect(within(form).getByLabelText('Expiry (MM/YY)')).toHaveAccessibleDescription(
      billingMessages.expiredCard,
    );
    expect(api.callsTo('POST /stripe/setup-intent')).toHaveLength(0);
  });

  it('a decline goes away, box and toast, when a later card is saved', async () => {
    confirmed.length = 0;
    const { app } = await openBillingTab({
      handlers: (state) => ({
        ...localHandlers()(state),
        'POST /billing/local/setup-intents/confirm': (call: RecordedCall) =>
          (call.body as { number: string }).number.endsWith('0002')
            ? errorAnswer(402, 'Your card was declined.')
            : { body: { success: true, paymentMethodId: 'pm_new' } },
      }),
    });
    const form = await fillCard(app, '4000000000000002');
    await app.user.click(within(form).getByRole('button', { name: 'Save Card' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Your card was declined.');
    await expectToast('Your card was declined.');

    await app.user.clear(within(form).getByLabelText('Card number'));
    await app.user.type(within(form).getByLabelText('Card number'), '4242424242424242');
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    await app.user.click(within(form).getByRole('button', { name: 'Save Card' }));
    await expectToast(billingMessages.paymentMethodAdded);
    await waitFor(() =>
      expect(within(toastRegion()).queryByText('Your card was declined.')).not.toBeInTheDocument(),
    );
    expect(screen.queryByText('Card not saved')).not.toBeInTheDocument();
  });

  it('says Setup Failed when the setup intent cannot be created', async () => {
    const { app, api } = await openBillingTab({
      handlers: () => ({ 'POST /stripe/setup-intent': errorAnswer(500) }),
    });
    const form = await fillCard(app, '4242424242424242');
    await app.user.click(within(form).getByRole('button', { name: 'Save Card' }));
    await expectToast(billingMessages.initializePaymentFormFailed);
    expect(within(toastRegion()).getByText('Setup Failed')).toBeInTheDocument();
    expect(api.callsTo('POST /billing/local/setup-intents/confirm')).toHaveLength(0);
  });

  it('checks the fields before calling anything', async () => {
    const { app, api } = await openBillingTab();
    const form = addCardForm();
    await app.user.click(within(form).getByRole('button', { name: 'Save Card' }));
    expect(await within(form).findByText('Card number is required')).toBeInTheDocument();
    expect(within(form).getByText('Expiry date is required')).toBeInTheDocument();
    expect(within(form).getByText('CVC is required')).toBeInTheDocument();
    expect(api.callsTo('POST /stripe/setup-intent')).toHaveLength(0);
  });

  it('opens from Add a Card when cards exist, and closes with Cancel', async () => {
    const { app } = await openBillingTab({ billing: { paymentMethods: [makeCard()] } });
    await app.user.click(screen.getByRole('button', { name: 'Add a Card' }));
    const form = addCardForm();
    await app.user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form', { name: 'Add a card' })).not.toBeInTheDocument();
  });
});

describe('card form by provider', () => {
  it('shows the Stripe card form, not the test form, when Stripe is configured', async () => {
    await openBillingTab({
      handlers: () => ({
        'GET /config': configWithBilling({
          provider: 'stripe',
          publishableKey: 'pk_test_123',
          configured: true,
        }),
      }),
    });
    const form = await screen.findByRole('form', { name: 'Add a card' });
    expect(within(form).getByText('Card details')).toBeInTheDocument();
    expect(within(form).queryByText('Test mode')).not.toBeInTheDocument();
    expect(within(form).queryByLabelText('Card number')).not.toBeInTheDocument();
  });

  it('shows the not-configured notice and no card form when payments are not set up', async () => {
    await openBillingTab({
      handlers: () => ({
        'GET /config': configWithBilling({ provider: 'stripe', publishableKey: null, configured: false }),
      }),
    });
    expect(await screen.findByText('Payments are not configured')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Add a card' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Manage Billing' })).toBeDisabled();
  });
});
