import { screen, waitFor, within } from '@testing-library/react';
import { billingMessages, ENTERPRISE_SALES_EMAIL, type User } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import {
  type BillingState,
  billingApi,
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

const trialUser = (overrides: Partial<User> = {}) => makeUser({ trialEndDate: inDays(3), ...overrides });
const starterUser = () =>
  makeUser({ subscriptionPlan: 'starter', subscriptionPeriod: 'monthly', subscriptionStatus: 'active' });

async function openPlanTab(
  options: {
    user?: User;
    billing?: Partial<BillingState>;
    handlers?: (state: BillingState) => Record<string, Handler>;
  } = {},
) {
  const billing = billingApi(options.billing);
  let user = options.user ?? trialUser();
  const setUser = (next: Partial<User>) => {
    user = { ...user, ...next };
  };
  const api = mockSignedIn(() => user, { ...billing.handlers, ...options.handlers?.(billing.state) });
  const app = renderApp('/account?tab=plan', { token: 'tok' });
  await screen.findByRole('heading', { level: 2, name: 'Current Plan' });
  await waitFor(() => expect(screen.queryByText('Loading your plan…')).not.toBeInTheDocument());
  return { app, api, state: billing.state, setUser };
}

const planCard = (name: string) => screen.getByRole('article', { name });
const currentPlan = () =>
  screen.getByRole('heading', { name: 'Current Plan' }).closest('.card') as HTMLElement;
const toastRegion = () => screen.getByRole('region', { name: 'Notifications' });
const expectToast = async (text: string) =>
  expect(await within(toastRegion()).findByText(text)).toBeInTheDocument();
const indexOfCall = (api: { calls: RecordedCall[] }, key: string, from = 0) =>
  api.calls.findIndex((call, index) => index >= from && `${call.method} ${call.path}` === key);

describe('plan cards and prices', () => {
  it('show monthly prices, then yearly as yearly / 12 with the computed saving on the toggle and the cards', async () => {
    const { app } = await openPlanTab();
    const starter = planCard('Starter');
    const growth = planCard('Growth');
    expect(await within(starter).findByText('$29')).toBeInTheDocument();
    expect(within(growth).getByText('$79')).toBeInTheDocument();
    expect(within(starter).getByText('Billed monthly')).toBeInTheDocument();
    const toggle = screen.getByRole('group', { name: 'Billing period' });
    expect(within(toggle).getByText('Save 20%')).toBeInTheDocument();
    expect(within(starter).queryByText(/Save/)).not.toBeInTheDocument();

    await app.user.click(screen.getByRole('radio', { name: /Yearly/ }));
    expect(within(starter).getByText('$23')).toBeInTheDocument();
    expect(within(starter).getByText('Billed yearly: $278.40')).toBeInTheDocument();
    expect(within(starter).getByText('Save 20%')).toBeInTheDocument();
    expect(within(growth).getByText('$63')).toBeInTheDocument();
    expect(within(growth).getByText('Billed yearly: $758.40')).toBeInTheDocument();
    expect(within(growth).getByText('Save 20%')).toBeInTheDocument();
  });

  it('list the SPEC §9 features of each plan', async () => {
    await openPlanTab();
    const starter = planCard('Starter');
    const growth = planCard('Growth');
    for (const feature of [
      'Mobile app access',
      'Dedicated text number',
      'Earnings dashboard',
      '7 day free trial',
    ]) {
      expect(within(starter).getByText(feature)).toBeInTheDocument();
      expect(within(growth).getByText(feature)).toBeInTheDocument();
    }
    expect(within(starter).getByText('Waitlist up to 25 customers')).toBeInTheDocument();
    expect(within(starter).getByText('1 cancellation alert per day')).toBeInTheDocument();
    expect(within(growth).getByText('Waitlist up to 100 customers')).toBeInTheDocument();
    expect(within(growth).getByText('2 cancellation alerts per day')).toBeInTheDocument();
  });

  it('fall back to the SPEC prices with a toast when pricing fails, and then show no saving', async () => {
    const { app } = await openPlanTab({ handlers: () => ({ 'GET /stripe/pricing': errorAnswer(500) }) });
    await expectToast('Failed to fetch pricing');
    expect(within(planCard('Starter')).getByText('$29')).toBeInTheDocument();
    expect(within(planCard('Growth')).getByText('$79')).toBeInTheDocument();
    await app.user.click(screen.getByRole('radio', { name: 'Yearly' }));
    expect(within(planCard('Starter')).getByText('$29')).toBeInTheDocument();
    expect(within(planCard('Starter')).getByText('Billed yearly: $348')).toBeInTheDocument();
    expect(within(planCard('Growth')).getByText('Billed yearly: $948')).toBeInTheDocument();
    expect(screen.queryByText(/Save \d+%/)).not.toBeInTheDocument();
  });

  it('offer Enterprise through a contact-sales mail link', async () => {
    await openPlanTab();
    const link = within(planCard('Enterprise')).getByRole('link', { name: 'Contact Sales' });
    expect(link.getAttribute('href')).toMatch(new RegExp(`^mailto:${ENTERPRISE_SALES_EMAIL}\\?subject=`));
  });
});

describe('current plan', () => {
  it('shows the trial with its days left', async () => {
    await openPlanTab({ user: trialUser({ trialEndDate: inDays(2.5) }) });
    const card = currentPlan();
    expect(within(card).getByText('Free Trial')).toBeInTheDocument();
    expect(within(card).getByText('Free Trial · 3 days left')).toBeInTheDocument();
    expect(within(card).getByText('Days remaining').nextSibling).toHaveTextContent('3');
    expect(screen.queryByRole('heading', { name: 'Cancel My Plan' })).not.toBeInTheDocument();
  });

  it('says Expired when the trial is over', async () => {
    await openPlanTab({ user: trialUser({ trialEndDate: inDays(-1) }) });
    const card = currentPlan();
    expect(within(card).getByText('Expired')).toBeInTheDocument();
    expect(within(card).getByRole('alert')).toHaveTextContent(billingMessages.trialExpired);
  });

  it('shows Text Number Verification Pending while the number is pending', async () => {
    await openPlanTab({ user: trialUser({ plivoNumberStatus: 'pending' }) });
    expect(within(currentPlan()).getByText('Text Number Verification Pending')).toBeInTheDocument();
  });

  it('shows the paid plan, its status and next billing date, and marks its card', async () => {
    await openPlanTab({ user: starterUser(), billing: { subscription: makeSubscription() } });
    const card = currentPlan();
    expect(await within(card).findByText('Starter Plan')).toBeInTheDocument();
    expect(within(card).getByText('Billed monthly')).toBeInTheDocument();
    expect(within(card).getByText('Active')).toBeInTheDocument();
    expect(within(card).getByText('Next billing date').nextSibling).toHaveTextContent('March 15, 2030');
    const starter = planCard('Starter');
    expect(within(starter).getByText('Current Plan', { selector: '.badge' })).toBeInTheDocument();
    expect(within(starter).getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  });

  it('falls back to created + 30 days for the next billing date (SPEC §9)', async () => {
    await openPlanTab({
      user: starterUser(),
      billing: { subscription: makeSubscription({ current_period_end: 0, created: unixNoon(2030, 1, 1) }) },
    });
    expect(await within(currentPlan()).findByText('January 31, 2030')).toBeInTheDocument();
  });

  it('shows a scheduled downgrade', async () => {
    await openPlanTab({
      user: starterUser(),
      billing: {
        subscription: makeSubscription({
          plan: 'growth',
          pending_change: { plan: 'starter', billingPeriod: 'monthly', effective_at: unixNoon(2030, 3, 15) },
        }),
      },
    });
    expect(
      await within(currentPlan()).findByText(/Your plan changes to Starter Plan on March 15, 2030\./),
    ).toBeInTheDocument();
    expect(within(planCard('Starter')).getByRole('button', { name: 'Starts Mar 15, 2030' })).toBeDisabled();
  });
});

describe('changing plans', () => {
  it('offers Go to Billing when there is no card, and changes nothing', async () => {
    const { app, api } = await openPlanTab();
    await app.user.click(within(planCard('Starter')).getByRole('button', { name: 'Select Starter' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm Plan Change' });
    expect(await within(dialog).findByText(billingMessages.noPaymentMethod)).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Confirm Plan Change' })).not.toBeInTheDocument();
    await app.user.click(within(dialog).getByRole('button', { name: 'Go to Billing' }));
    expect(app.location()).toBe('/account?tab=billing');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.callsTo('POST /stripe/update-subscription-with-existing-payment')).toHaveLength(0);
  });

  it("upgrades Starter → Growth: the update, then the notification, then a reload; the toast is the server's", async () => {
    const { app, api, setUser } = await openPlanTab({
      user: starterUser(),
      billing: { subscription: makeSubscription(), paymentMethods: [makeCard()] },
      handlers: (state) => ({
        'POST /stripe/update-subscription-with-existing-payment': () => {
          const invoice = makeInvoice({ id: 'in_2', number: 'WT-0002', amount_paid: 3250, amount_due: 3250 });
          state.subscription = makeSubscription({ plan: 'growth' });
          state.invoices = [invoice];
          setUser({ subscriptionPlan: 'growth' });
          return {
            body: {
              success: true,
              message:
                'Your plan has been changed to Growth Plan (monthly). A prorated charge of $32.50 was made to your default card.',
              subscription: state.subscription,
              effective: 'now',
              invoice,
            },
          };
        },
      }),
    });
    await app.user.click(within(planCard('Growth')).getByRole('button', { name: 'Select Growth' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm Plan Change' });
    expect(await within(dialog).findByText('Visa •••• 4242')).toBeInTheDocument();
    expect(within(dialog).getByText('Starter Plan (monthly)')).toBeInTheDocument();
    expect(within(dialog).getByText('Growth Plan (monthly)')).toBeInTheDocument();
    expect(within(dialog).getByText('$79 per month')).toBeInTheDocument();
    expect(
      within(dialog).getByText(/prorated difference .* is charged today to Visa •••• 4242/),
    ).toBeInTheDocument();

    const subscriptionReadsBefore = api.callsTo('GET /stripe/subscription').length;
    await app.user.click(within(dialog).getByRole('button', { name: 'Confirm Plan Change' }));
    await expectToast(
      'Your plan has been changed to Growth Plan (monthly). A prorated charge of $32.50 was made to your default card.',
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.callsTo('POST /stripe/update-subscription-with-existing-payment')[0]!.body).toEqual({
      planType: 'GROWTH',
      billingPeriod: 'monthly',
    });
    expect(await within(currentPlan()).findByText('Growth Plan')).toBeInTheDocument();
    expect(api.callsTo('POST /notifications/plan-change')[0]!.body).toEqual({
      oldPlan: 'Starter Plan (monthly)',
      newPlan: 'Growth Plan (monthly)',
    });
    const update = indexOfCall(api, 'POST /stripe/update-subscription-with-existing-payment');
    const notification = indexOfCall(api, 'POST /notifications/plan-change');
    expect(update).toBeLessThan(notification);
    expect(indexOfCall(api, 'GET /stripe/subscription', notification)).toBeGreaterThan(notification);
    expect(indexOfCall(api, 'GET /auth/me', notification)).toBeGreaterThan(notification);
    expect(api.callsTo('GET /stripe/subscription').length).toBeGreaterThan(subscriptionReadsBefore);
    expect(within(planCard('Growth')).getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  });

  it('moves from the trial to Starter yearly for the full price now (sentence composed when the server sends none)', async () => {
    const { app, api } = await openPlanTab({
      billing: { paymentMethods: [makeCard()] },
      handlers: (state) => ({
        'POST /stripe/update-subscription-with-existing-payment': () => {
          state.subscription = makeSubscription({ billingPeriod: 'yearly' });
          return {
            body: {
              success: true,
              message: '',
              subscription: state.subscription,
              effective: 'now',
              invoice: makeInvoice({ amount_paid: 27840, amount_due: 27840 }),
            },
          };
        },
      }),
    });
    await app.user.click(screen.getByRole('radio', { name: /Yearly/ }));
    await app.user.click(within(planCard('Starter')).getByRole('button', { name: 'Select Starter' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm Plan Change' });
    expect(await within(dialog).findByText('$278.40 per year ($23 a month)')).toBeInTheDocument();
    expect(within(dialog).getByText('Free Trial')).toBeInTheDocument();
    expect(within(dialog).getByText(/\$278\.40 is charged today to Visa •••• 4242/)).toBeInTheDocument();
    await app.user.click(within(dialog).getByRole('button', { name: 'Confirm Plan Change' }));
    await expectToast(
      'Your plan has been changed to Starter Plan (yearly). A charge of $278.40 was made to your default card.',
    );
    expect(api.callsTo('POST /stripe/update-subscription-with-existing-payment')[0]!.body).toEqual({
      planType: 'STARTER',
      billingPeriod: 'yearly',
    });
    expect(api.callsTo('POST /notifications/plan-change')[0]!.body).toEqual({
      oldPlan: 'Free Trial',
      newPlan: 'Starter Plan (yearly)',
    });
  });

  it('says before confirming that upgrading during the trial charges today and ends the trial days left', async () => {
    const { app } = await openPlanTab({
      user: trialUser({ trialEndDate: inDays(4.5) }),
      billing: { paymentMethods: [makeCard()] },
    });
    await app.user.click(within(planCard('Starter')).getByRole('button', { name: 'Select Starter' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm Plan Change' });
    expect(await within(dialog).findByText('Your free trial ends today')).toBeInTheDocument();
    expect(
      within(dialog).getByText(/You have 5 days of free trial left\. Upgrading now ends the trial/),
    ).toBeInTheDocument();
    expect(within(dialog).getByText(/is charged today to Visa •••• 4242/)).toBeInTheDocument();
  });

  it('says nothing about the trial when it is already over', async () => {
    const { app } = await openPlanTab({
      user: trialUser({ trialEndDate: inDays(-1) }),
      billing: { paymentMethods: [makeCard()] },
    });
    await app.user.click(within(planCard('Starter')).getByRole('button', { name: 'Select Starter' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm Plan Change' });
    await within(dialog).findByText(/is charged today/);
    expect(within(dialog).queryByText('Your free trial ends today')).not.toBeInTheDocument();
  });

  it('schedules a downgrade Growth → Starter for the end of the period', async () => {
    const { app } = await openPlanTab({
      user: makeUser({
        subscriptionPlan: 'growth',
        subscriptionPeriod: 'monthly',
        subscriptionStatus: 'active',
      }),
      billing: { subscription: makeSubscription({ plan: 'growth' }), paymentMethods: [makeCard()] },
      handlers: (state) => ({
        'POST /stripe/update-subscription-with-existing-payment': () => {
          state.subscription = makeSubscription({
            plan: 'growth',
            pending_change: {
              plan: 'starter',
              billingPeriod: 'monthly',
              effective_at: unixNoon(2030, 3, 15),
            },
          });
          return {
            body: {
              success: true,
              message: 'Your plan will change to Starter Plan (monthly) on March 15, 2030.',
              subscription: state.subscription,
              effective: 'period_end',
              invoice: null,
            },
          };
        },
      }),
    });
    await app.user.click(within(planCard('Starter')).getByRole('button', { name: 'Select Starter' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm Plan Change' });
    expect(
      await within(dialog).findByText(
        /at the end of your billing period, on March 15, 2030\. Nothing is charged today/,
      ),
    ).toBeInTheDocument();
    await app.user.click(within(dialog).getByRole('button', { name: 'Confirm Plan Change' }));
    await expectToast('Your plan will change to Starter Plan (monthly) on March 15, 2030.');
    expect(
      await within(currentPlan()).findByText(/Your plan changes to Starter Plan on March 15, 2030\./),
    ).toBeInTheDocument();
  });

  it('does nothing for the current plan', async () => {
    const { app, api } = await openPlanTab({
      user: starterUser(),
      billing: { subscription: makeSubscription(), paymentMethods: [makeCard()] },
    });
    const button = within(planCard('Starter')).getByRole('button', { name: 'Current Plan' });
    expect(button).toBeDisabled();
    await app.user.click(button);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it("shows the server's reason when the payment is refused, else the SPEC default, and stays open", async () => {
    let answer = errorAnswer(402, 'Your card was declined.');
    const { app, api } = await openPlanTab({
      billing: { paymentMethods: [makeCard()] },
      handlers: () => ({ 'POST /stripe/update-subscription-with-existing-payment': () => answer }),
    });
    await app.user.click(within(planCard('Growth')).getByRole('button', { name: 'Select Growth' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm Plan Change' });
    await within(dialog).findByText('Visa •••• 4242');
    await app.user.click(within(dialog).getByRole('button', { name: 'Confirm Plan Change' }));
    await expectToast('Your card was declined.');
    expect(screen.getByRole('dialog', { name: 'Confirm Plan Change' })).toBeInTheDocument();

    answer = errorAnswer(500);
    await app.user.click(within(dialog).getByRole('button', { name: 'Confirm Plan Change' }));
    await expectToast(billingMessages.updateSubscriptionNeedsCard);
    expect(api.callsTo('POST /notifications/plan-change')).toHaveLength(0);
  });

  it('turns to Go to Billing when the server says there is no card', async () => {
    const { app } = await openPlanTab({
      billing: { paymentMethods: [makeCard()] },
      handlers: () => ({
        'POST /stripe/update-subscription-with-existing-payment': errorAnswer(
          400,
          billingMessages.noPaymentMethod,
        ),
      }),
    });
    await app.user.click(within(planCard('Starter')).getByRole('button', { name: 'Select Starter' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm Plan Change' });
    await within(dialog).findByText('Visa •••• 4242');
    await app.user.click(within(dialog).getByRole('button', { name: 'Confirm Plan Change' }));
    expect(await within(dialog).findByRole('button', { name: 'Go to Billing' })).toBeInTheDocument();
  });

  it('sends one change however fast Confirm is clicked', async () => {
    let release: () => void = () => {};
    const { app, api } = await openPlanTab({
      billing: { paymentMethods: [makeCard()] },
      handlers: (state) => ({
        'POST /stripe/update-subscription-with-existing-payment': async () => {
          await new Promise<void>((resolve) => {
            release = resolve;
          });
          state.subscription = makeSubscription();
          return {
            body: {
              success: true,
              message: 'Your plan has been changed to Starter Plan (monthly).',
              subscription: state.subscription,
              effective: 'now',
              invoice: null,
            },
          };
        },
      }),
    });
    await app.user.click(within(planCard('Starter')).getByRole('button', { name: 'Select Starter' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm Plan Change' });
    await within(dialog).findByText('Visa •••• 4242');
    const confirm = within(dialog).getByRole('button', { name: 'Confirm Plan Change' });
    await app.user.click(confirm);
    expect(confirm).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await app.user.click(confirm);
    release();
    await expectToast('Your plan has been changed to Starter Plan (monthly).');
    expect(api.callsTo('POST /stripe/update-subscription-with-existing-payment')).toHaveLength(1);
  });

  it('closes the dialog with Escape and puts focus inside it while open', async () => {
    const { app } = await openPlanTab({ billing: { paymentMethods: [makeCard()] } });
    const select = within(planCard('Growth')).getByRole('button', { name: 'Select Growth' });
    await app.user.click(select);
    const dialog = screen.getByRole('dialog', { name: 'Confirm Plan Change' });
    expect(dialog.contains(document.activeElement)).toBe(true);
    await app.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(select).toHaveFocus();
  });
});

describe('cancel and resume', () => {
  it('cancels at period end after confirming; the button then reads Cancellation Confirmed', async () => {
    const { app, api } = await openPlanTab({
      user: starterUser(),
      billing: { subscription: makeSubscription(), paymentMethods: [makeCard()] },
      handlers: (state) => ({
        'POST /stripe/cancel-subscription': () => {
          state.subscription = makeSubscription({ cancel_at_period_end: true });
          return {
            body: {
              success: true,
              message: billingMessages.subscriptionCancelled,
              subscription: state.subscription,
            },
          };
        },
      }),
    });
    await app.user.click(await screen.findByRole('button', { name: 'Cancel My Plan' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel My Plan' });
    expect(within(dialog).getByText('March 15, 2030')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Keep My Plan' })).toHaveFocus();
    await app.user.click(within(dialog).getByRole('button', { name: 'Confirm Cancellation' }));
    await expectToast(billingMessages.subscriptionCancelled);
    expect(screen.getByRole('button', { name: 'Cancellation Confirmed' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Cancel My Plan' })).not.toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Resume Subscription' })).toBeInTheDocument();
    expect(screen.getByText(/Your subscription is cancelled\./)).toBeInTheDocument();
    expect(api.callsTo('POST /notifications/plan-cancel')).toHaveLength(1);
    expect(indexOfCall(api, 'POST /stripe/cancel-subscription')).toBeLessThan(
      indexOfCall(api, 'POST /notifications/plan-cancel'),
    );
  });

  it('keeps the plan when the dialog is dismissed', async () => {
    const { app, api } = await openPlanTab({
      user: starterUser(),
      billing: { subscription: makeSubscription() },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Cancel My Plan' }));
    await app.user.click(screen.getByRole('button', { name: 'Keep My Plan' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.callsTo('POST /stripe/cancel-subscription')).toHaveLength(0);
  });

  it('says so when cancelling fails', async () => {
    const { app } = await openPlanTab({
      user: starterUser(),
      billing: { subscription: makeSubscription() },
      handlers: () => ({ 'POST /stripe/cancel-subscription': errorAnswer(500) }),
    });
    await app.user.click(await screen.findByRole('button', { name: 'Cancel My Plan' }));
    await app.user.click(screen.getByRole('button', { name: 'Confirm Cancellation' }));
    await expectToast(billingMessages.cancelSubscriptionFailed);
    expect(screen.getByRole('button', { name: 'Cancel My Plan' })).toBeEnabled();
  });

  it('resumes a cancelling subscription', async () => {
    const { app, api } = await openPlanTab({
      user: starterUser(),
      billing: { subscription: makeSubscription({ cancel_at_period_end: true }) },
      handlers: (state) => ({
        'POST /stripe/resume-subscription': () => {
          state.subscription = makeSubscription();
          return {
            body: {
              success: true,
              message: billingMessages.subscriptionResumed,
              subscription: state.subscription,
            },
          };
        },
      }),
    });
    expect(await screen.findByRole('button', { name: 'Cancellation Confirmed' })).toBeDisabled();
    expect(within(currentPlan()).getByText('Active until')).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Resume Subscription' }));
    await expectToast(billingMessages.subscriptionResumed);
    expect(await screen.findByRole('button', { name: 'Cancel My Plan' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Resume Subscription' })).not.toBeInTheDocument();
    expect(api.callsTo('POST /stripe/resume-subscription')).toHaveLength(1);
  });

  it('says so when resuming fails', async () => {
    const { app } = await openPlanTab({
      user: starterUser(),
      billing: { subscription: makeSubscription({ cancel_at_period_end: true }) },
      handlers: () => ({ 'POST /stripe/resume-subscription': errorAnswer(500) }),
    });
    await app.user.click(await screen.findByRole('button', { name: 'Resume Subscription' }));
    await expectToast(billingMessages.resumeSubscriptionFailed);
  });
});

describe('plan tab', () => {
  it('toasts when the subscription cannot be loaded, and still shows the plans', async () => {
    await openPlanTab({ handlers: () => ({ 'GET /stripe/subscription': errorAnswer(500) }) });
    await expectToast(billingMessages.loadSubscriptionFailed);
    expect(planCard('Starter')).toBeInTheDocument();
    expect(within(currentPlan()).getByText('Free Trial')).toBeInTheDocument();
  });

  it('ends with Delete My Account (SPEC §2)', async () => {
    await openPlanTab();
    expect(screen.getByRole('button', { name: 'Delete My Account' })).toBeInTheDocument();
  });
});
