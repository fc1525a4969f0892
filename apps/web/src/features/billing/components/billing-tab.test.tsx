import { screen, waitFor, within } from '@testing-library/react';
import { billingMessages, type User } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import {
  type BillingState,
  billingApi,
  configWithBilling,
  makeCard,
  makeInvoice,
  makeSubscription,
  unixNoon,
} from '../../../test/billing-fixtures.ts';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import { type MockAnswer, mockSignedIn, type RecordedCall } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

type Handler = MockAnswer | ((call: RecordedCall) => MockAnswer | Promise<MockAnswer>);
const DAY = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

async function openBillingTab(
  options: {
    user?: User;
    billing?: Partial<BillingState>;
    handlers?: (state: BillingState) => Record<string, Handler>;
  } = {},
) {
  const billing = billingApi(options.billing);
  const user = options.user ?? makeUser({ trialEndDate: inDays(4) });
  const api = mockSignedIn(user, { ...billing.handlers, ...options.handlers?.(billing.state) });
  const app = renderApp('/account?tab=billing', { token: 'tok' });
  await screen.findByRole('heading', { level: 2, name: 'Payment Methods' });
  await waitFor(() =>
    expect(screen.queryByText(/^Loading your (cards|invoices|subscription)…$/)).not.toBeInTheDocument(),
  );
  return { app, api, state: billing.state };
}

const toastRegion = () => screen.getByRole('region', { name: 'Notifications' });
const expectToast = async (text: string) =>
  expect(await within(toastRegion()).findByText(text)).toBeInTheDocument();
const cardRow = (name: string) => screen.getByRole('listitem', { name });
const addCardForm = () => screen.getByRole('form', { name: 'Add a card' });

describe('trial banner', () => {
  it('shows the days left of the free trial', async () => {
    await openBillingTab({ user: makeUser({ trialEndDate: inDays(4) }) });
    expect(screen.getByText('Free Trial: 4 days left')).toBeInTheDocument();
  });

  it('turns into the red Expired banner with Upgrade Now → /account?tab=plan', async () => {
    const { app } = await openBillingTab({ user: makeUser({ trialEndDate: inDays(-2) }) });
    const banner = screen
      .getByText('Expired', { selector: '.trial-banner__title' })
      .closest('.trial-banner') as HTMLElement;
    expect(banner).toHaveClass('trial-banner--expired');
    expect(banner).toHaveAttribute('role', 'alert');
    expect(within(banner).getByText(billingMessages.trialExpired)).toBeInTheDocument();
    await app.user.click(within(banner).getByRole('link', { name: 'Upgrade Now' }));
    expect(app.location()).toBe('/account?tab=plan');
    expect(await screen.findByRole('heading', { level: 2, name: 'Current Plan' })).toBeInTheDocument();
  });

  it('is not shown to paying owners; a failed payment is', async () => {
    await openBillingTab({
      user: makeUser({ subscriptionPlan: 'starter', subscriptionStatus: 'past_due' }),
      billing: { subscription: makeSubscription({ status: 'past_due' }) },
    });
    expect(screen.queryByText(/days left/)).not.toBeInTheDocument();
    expect(screen.getByText(billingMessages.pastDue)).toBeInTheDocument();
  });
});

describe('subscription status box', () => {
  it('shows the plan, its badges and the renewal date, with Upgrade Plan → the plan tab', async () => {
    const { app } = await openBillingTab({
      user: makeUser({
        subscriptionPlan: 'starter',
        subscriptionStatus: 'active',
        plivoNumberStatus: 'pending',
      }),
      billing: { subscription: makeSubscription() },
    });
    const box = screen.getByRole('heading', { name: 'Subscription' }).closest('.card') as HTMLElement;
    expect(within(box).getByText('Starter Plan')).toBeInTheDocument();
    expect(within(box).getByText('Active')).toBeInTheDocument();
    expect(within(box).getByText('Text Number Verification Pending')).toBeInTheDocument();
    expect(within(box).getByText('Renews on March 15, 2030')).toBeInTheDocument();
    await app.user.click(within(box).getByRole('link', { name: 'Upgrade Plan' }));
    expect(app.location()).toBe('/account?tab=plan');
  });

  it('asks for a billing portal session for Manage Billing, and says so when it fails', async () => {
    const { app, api } = await openBillingTab({
      handlers: () => ({ 'POST /stripe/create-portal-session': errorAnswer(500) }),
    });
    await app.user.click(screen.getByRole('button', { name: 'Manage Billing' }));
    await expectToast(billingMessages.createPortalSessionFailed);
    expect(api.callsTo('POST /stripe/create-portal-session')).toHaveLength(1);
  });
});

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

describe('invoice history', () => {
  it('lists date, number, amount and status, newest first, with View and PDF in new tabs', async () => {
    await openBillingTab({
      billing: {
        invoices: [
          makeInvoice(),
          makeInvoice({
            id: 'in_2',
            number: 'WT-0002',
            created: unixNoon(2030, 3, 1),
            amount_paid: 0,
            amount_due: 3250,
            status: 'open',
            hosted_invoice_url: '/api/v1/billing/local/invoices/inv_def',
            invoice_pdf: '/api/v1/billing/local/invoices/inv_def/pdf',
          }),
          makeInvoice({ id: 'in_3', number: 'WT-0003', created: unixNoon(2030, 1, 1), status: 'void' }),
        ],
      },
    });
    const table = screen.getByRole('table', { name: 'Invoice history' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(0, 4)
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Mar 1, 2030', 'WT-0002', '$32.50', 'Open'],
      ['Feb 15, 2030', 'WT-0001', '$29', 'Paid'],
      ['Jan 1, 2030', 'WT-0003', '$29', 'Void'],
    ]);
    const view = within(rows[1]!).getByRole('link', { name: 'View invoice WT-0001' });
    expect(view).toHaveAttribute('href', '/api/v1/billing/local/invoices/inv_abc');
    expect(view).toHaveAttribute('target', '_blank');
    expect(view).toHaveAttribute('rel', 'noopener noreferrer');
    const pdf = within(rows[1]!).getByRole('link', { name: 'PDF of invoice WT-0001' });
    expect(pdf).toHaveAttribute('href', '/api/v1/billing/local/invoices/inv_abc/pdf');
    expect(pdf).toHaveAttribute('target', '_blank');
  });

  it('says when there are none yet', async () => {
    await openBillingTab();
    expect(
      screen.getByText('No invoices yet. They appear here after your first payment.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});

describe('phone number section', () => {
  it('sits in the side column with its heading (its states: phone-number-section.test.tsx)', async () => {
    await openBillingTab();
    const section = screen.getByTestId('phone-number-section');
    expect(within(section).getByRole('heading', { name: 'Text Number' })).toBeInTheDocument();
    expect(await within(section).findByRole('button', { name: 'Request a number' })).toBeInTheDocument();
  });
});

describe('billing details (SPEC §7 POST /stripe/update-billing-details)', () => {
  const detailsForm = () => screen.getByRole('form', { name: 'Billing details' });

  it('starts from the business profile and sends the name and address on invoices', async () => {
    const { app, api } = await openBillingTab({
      handlers: () => ({
        'POST /stripe/update-billing-details': {
          body: { success: true, message: billingMessages.billingDetailsUpdated },
        },
        'POST /notifications/billing-update': { body: { success: true, message: 'sent' } },
      }),
    });
    const form = detailsForm();
    expect(within(form).getByLabelText('Name on invoices')).toHaveValue('Bella Salon');
    expect(within(form).getByLabelText(/Address/)).toHaveValue('12 Main St');
    expect(within(form).getByLabelText('Country')).toHaveValue('US');
    const save = within(form).getByRole('button', { name: 'Save Billing Details' });
    expect(save).toBeDisabled();

    await app.user.clear(within(form).getByLabelText('Name on invoices'));
    await app.user.type(within(form).getByLabelText('Name on invoices'), 'Bella Salon LLC');
    await app.user.clear(within(form).getByLabelText(/ZIP code/));
    await app.user.type(within(form).getByLabelText(/ZIP code/), '62704');
    await app.user.click(save);

    await expectToast(billingMessages.billingDetailsUpdated);
    expect(api.callsTo('POST /stripe/update-billing-details')[0]!.body).toEqual({
      name: 'Bella Salon LLC',
      address: { line1: '12 Main St', city: 'Springfield', state: 'IL', postal_code: '62704', country: 'US' },
    });
    await waitFor(() => expect(api.callsTo('POST /notifications/billing-update')).toHaveLength(1));
    expect(save).toBeDisabled();
  });

  it('checks the name and country first, and shows the SPEC default when saving fails', async () => {
    const { app, api } = await openBillingTab({
      handlers: () => ({ 'POST /stripe/update-billing-details': errorAnswer(500) }),
    });
    const form = detailsForm();
    await app.user.clear(within(form).getByLabelText('Name on invoices'));
    await app.user.clear(within(form).getByLabelText('Country'));
    await app.user.type(within(form).getByLabelText('Country'), 'U');
    await app.user.click(within(form).getByRole('button', { name: 'Save Billing Details' }));
    expect(await within(form).findByText('Enter the name to put on invoices')).toBeInTheDocument();
    expect(within(form).getByText('A 2-letter country code, like US')).toBeInTheDocument();
    expect(api.callsTo('POST /stripe/update-billing-details')).toHaveLength(0);

    await app.user.type(within(form).getByLabelText('Name on invoices'), 'Bella');
    await app.user.type(within(form).getByLabelText('Country'), 's');
    await app.user.click(within(form).getByRole('button', { name: 'Save Billing Details' }));
    await expectToast('Failed to update billing details');
    expect(api.callsTo('POST /stripe/update-billing-details')[0]!.body).toMatchObject({
      address: { country: 'US' },
    });
  });
});
