import { screen, waitFor, within } from '@testing-library/react';
import type { PlanChangePreview } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { makeCard, makeSubscription, unixNoon } from '../../../test/billing-fixtures.ts';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import type { MockAnswer } from '../../../test/mock-api.ts';
import { openPlanTab, planCard, starterUser } from './plan-tab.test-helpers.tsx';

/** Issue 27: the Confirm Plan Change dialog says what is charged today before the owner confirms. */

const answer = (data: PlanChangePreview): MockAnswer => ({ body: { success: true, data } });
const dialog = () => screen.getByRole('dialog', { name: 'Confirm Plan Change' });
const confirm = () => within(dialog()).getByRole('button', { name: 'Confirm Plan Change' });

describe('the amount charged today, before Confirm', () => {
  it('an upgrade: a loading line and Confirm disabled, then "You\'ll be charged $33.33 today"', async () => {
    let release: (value: MockAnswer) => void = () => {};
    const { app, api } = await openPlanTab({
      user: starterUser(),
      billing: { subscription: makeSubscription(), paymentMethods: [makeCard()] },
      handlers: () => ({
        'GET /stripe/plan-change-preview': () =>
          new Promise<MockAnswer>((resolve) => {
            release = resolve;
          }),
      }),
    });
    await app.user.click(within(planCard('Growth')).getByRole('button', { name: 'Select Growth' }));
    expect(await within(dialog()).findByText('Visa •••• 4242')).toBeInTheDocument();
    expect(within(dialog()).getByText('Working out today’s charge…')).toBeInTheDocument();
    expect(confirm()).toBeDisabled();
    expect(within(dialog()).queryByText(/charged/)).not.toBeInTheDocument();

    release(answer({ effective: 'now', amountDue: 3333, currency: 'usd', effectiveAt: null }));
    expect(await within(dialog()).findByTestId('plan-change-charge')).toHaveTextContent(
      "You'll be charged $33.33 today to Visa •••• 4242: the prorated difference for the rest of this billing period. The change applies now.",
    );
    expect(confirm()).toBeEnabled();
    expect(api.callsTo('GET /stripe/plan-change-preview')).toHaveLength(1);
    expect(api.callsTo('POST /stripe/update-subscription-with-existing-payment')).toHaveLength(0);
  });

  it('a downgrade: "No charge today", with the day the change applies', async () => {
    const { app } = await openPlanTab({
      user: makeUser({
        subscriptionPlan: 'growth',
        subscriptionPeriod: 'monthly',
        subscriptionStatus: 'active',
      }),
      billing: { subscription: makeSubscription({ plan: 'growth' }), paymentMethods: [makeCard()] },
      handlers: () => ({
        'GET /stripe/plan-change-preview': answer({
          effective: 'period_end',
          amountDue: 0,
          currency: 'usd',
          effectiveAt: unixNoon(2030, 3, 15),
        }),
      }),
    });
    await app.user.click(within(planCard('Starter')).getByRole('button', { name: 'Select Starter' }));
    expect(await within(dialog()).findByTestId('plan-change-charge')).toHaveTextContent(
      'No charge today; the change applies at the end of your billing period, on March 15, 2030, and you keep your current plan until then.',
    );
    expect(confirm()).toBeEnabled();
  });

  it('the first plan from the trial: the full price today', async () => {
    const { app } = await openPlanTab({
      billing: { paymentMethods: [makeCard()] },
      handlers: () => ({
        'GET /stripe/plan-change-preview': answer({
          effective: 'now',
          amountDue: 2900,
          currency: 'usd',
          effectiveAt: null,
        }),
      }),
    });
    await app.user.click(within(planCard('Starter')).getByRole('button', { name: 'Select Starter' }));
    expect(await within(dialog()).findByTestId('plan-change-charge')).toHaveTextContent(
      "You'll be charged $29 today to Visa •••• 4242, and your new plan starts right away.",
    );
  });

  it('when the preview fails: the change in words, and Confirm still works', async () => {
    const { app } = await openPlanTab({
      user: starterUser(),
      billing: { subscription: makeSubscription(), paymentMethods: [makeCard()] },
      handlers: () => ({ 'GET /stripe/plan-change-preview': errorAnswer(503) }),
    });
    await app.user.click(within(planCard('Growth')).getByRole('button', { name: 'Select Growth' }));
    expect(
      await within(dialog()).findByText(
        /The prorated difference for the rest of this billing period is charged today/,
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(confirm()).toBeEnabled());
  });
});
