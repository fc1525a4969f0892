import { cleanup, screen, within } from '@testing-library/react';
import { billingMessages, DEFAULT_PLAN_CATALOGUE, ENTERPRISE_SALES_EMAIL } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { makeCard, makeSubscription, unixNoon } from '../../../test/billing-fixtures.ts';
import { errorAnswer } from '../../../test/fixtures.ts';
import { defaultConfigBody } from '../../../test/mock-api.ts';
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

  it('fall back to the same prices with a toast when pricing fails, and still say "Save 20%" (issue 27)', async () => {
    const { app } = await openPlanTab({ handlers: () => ({ 'GET /stripe/pricing': errorAnswer(500) }) });
    await expectToast('Failed to fetch pricing');
    expect(within(planCard('Starter')).getByText('$29')).toBeInTheDocument();
    expect(within(planCard('Growth')).getByText('$79')).toBeInTheDocument();
    const toggle = screen.getByRole('group', { name: 'Billing period' });
    expect(within(toggle).getByText('Save 20%')).toBeInTheDocument();
    await app.user.click(screen.getByRole('radio', { name: /Yearly/ }));
    expect(within(planCard('Starter')).getByText('$23')).toBeInTheDocument();
    expect(within(planCard('Starter')).getByText('Billed yearly: $278.40')).toBeInTheDocument();
    expect(within(planCard('Growth')).getByText('Billed yearly: $758.40')).toBeInTheDocument();
    expect(within(planCard('Growth')).getByText('Save 20%')).toBeInTheDocument();
    expect(within(toggle).getByText('Save 20%')).toBeInTheDocument();
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

describe('the operator’s plan catalogue (issue 39)', () => {
  it('names and limits the cards as GET /config configures them, and says who pays for text segments', async () => {
    const plans = {
      ...DEFAULT_PLAN_CATALOGUE,
      starter: { ...DEFAULT_PLAN_CATALOGUE.starter, alertsPerDay: 3, waitlistSize: 40 },
      growth: { ...DEFAULT_PLAN_CATALOGUE.growth, name: 'Pro Plan', textsIncluded: 2000 },
    };
    await openPlanTab({
      handlers: () => ({
        'GET /config': { body: { ...defaultConfigBody, plans } },
      }),
    });
    const starter = await screen.findByRole('article', { name: 'Starter' });
    expect(await within(starter).findByText('3 cancellation alerts per day')).toBeInTheDocument();
    expect(within(starter).getByText('Waitlist up to 40 customers')).toBeInTheDocument();
    const pro = planCard('Pro');
    expect(within(pro).getByText('2 cancellation alerts per day')).toBeInTheDocument();
    expect(within(pro).getByText('2000 text segments a month included')).toBeInTheDocument();
    expect(screen.getByTestId('who-pays-segments')).toHaveTextContent(
      /we pay the carrier for every segment \(about \$0\.0079 a segment\), and your plan price covers them/,
    );
  });

  it('counts this month’s text segments against the plan’s texts included, and says when it is over', async () => {
    const plans = {
      ...DEFAULT_PLAN_CATALOGUE,
      free_trial: { ...DEFAULT_PLAN_CATALOGUE.free_trial, textsIncluded: 500 },
    };
    let segmentsSent = 320;
    const { api } = await openPlanTab({
      handlers: () => ({
        'GET /config': { body: { ...defaultConfigBody, plans } },
        'GET /dashboard/earnings': () => ({
          body: { success: true, data: { period: { segmentsSent, from: '2026-12-01', to: '2026-12-31' } } },
        }),
      }),
    });
    expect(await screen.findByTestId('texts-this-month')).toHaveTextContent(
      '320 of 500 text segments included in your plan used',
    );
    expect(screen.getByRole('meter', { name: 'Texts this month' })).toHaveAttribute('value', '320');
    expect(api.calls.some((call) => call.path === '/dashboard/earnings')).toBe(true);
    cleanup();
    segmentsSent = 540;
    await openPlanTab({
      handlers: () => ({
        'GET /config': { body: { ...defaultConfigBody, plans } },
        'GET /dashboard/earnings': () => ({
          body: { success: true, data: { period: { segmentsSent, from: '2026-12-01', to: '2026-12-31' } } },
        }),
      }),
    });
    expect(await screen.findByText(/40 segments over your allowance this month/)).toBeInTheDocument();
  });

  it('shows no allowance for a plan without texts included, and asks nothing for it', async () => {
    const { api } = await openPlanTab();
    expect(screen.queryByRole('heading', { name: 'Texts this month' })).not.toBeInTheDocument();
    expect(api.calls.some((call) => call.path === '/dashboard/earnings')).toBe(false);
  });
});
