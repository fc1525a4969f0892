import { screen, within } from '@testing-library/react';
import { billingMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { makeCard, makeSubscription } from '../../../test/billing-fixtures.ts';
import { expectToast, openPlanTab, planCard, starterUser, trialUser } from './plan-tab.test-helpers.tsx';

/** SPEC §2 (issue 27): the plan cards offer cancel and resume, on the owner's own plan. */

describe('cancel and resume on the plan card', () => {
  it('the current plan card offers Cancel plan; confirming cancels at the period end and the card offers Resume plan', async () => {
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
    const starter = planCard('Starter');
    expect(within(planCard('Growth')).queryByRole('button', { name: /Cancel plan|Resume plan/ })).toBeNull();
    await app.user.click(within(starter).getByRole('button', { name: 'Cancel plan' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel My Plan' });
    expect(within(dialog).getByText('March 15, 2030')).toBeInTheDocument();
    await app.user.click(within(dialog).getByRole('button', { name: 'Confirm Cancellation' }));
    await expectToast(billingMessages.subscriptionCancelled);
    expect(api.callsTo('POST /stripe/cancel-subscription')).toHaveLength(1);
    expect(api.callsTo('POST /notifications/plan-cancel')).toHaveLength(1);

    await app.user.click(await within(planCard('Starter')).findByRole('button', { name: 'Resume plan' }));
    await expectToast(billingMessages.subscriptionResumed);
    expect(api.callsTo('POST /stripe/resume-subscription')).toHaveLength(1);
    expect(await within(planCard('Starter')).findByRole('button', { name: 'Cancel plan' })).toBeEnabled();
    // The Cancel My Plan section stays too (the SPEC's other places).
    expect(screen.getByRole('button', { name: 'Cancel My Plan' })).toBeEnabled();
  });

  it('the free trial has nothing to cancel: no card offers it', async () => {
    await openPlanTab({ user: trialUser() });
    for (const name of ['Starter', 'Growth'])
      expect(within(planCard(name)).queryByRole('button', { name: /Cancel plan|Resume plan/ })).toBeNull();
  });
});
