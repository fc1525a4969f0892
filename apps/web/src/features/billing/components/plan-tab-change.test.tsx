import { screen, within } from '@testing-library/react';
import { billingMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { makeCard, makeInvoice, makeSubscription, unixNoon } from '../../../test/billing-fixtures.ts';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import {
  currentPlan,
  expectToast,
  inDays,
  indexOfCall,
  openPlanTab,
  planCard,
  starterUser,
  trialUser,
} from './plan-tab.test-helpers.tsx';

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
