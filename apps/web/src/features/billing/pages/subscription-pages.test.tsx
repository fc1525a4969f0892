import { screen, within } from '@testing-library/react';
import { billingMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { billingApi, makeSubscription } from '../../../test/billing-fixtures.ts';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import { mockApi, mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

describe('/subscription/success', () => {
  it('without session_id shows Invalid session ID with the title Session Error', async () => {
    mockSignedIn(makeUser(), billingApi().handlers);
    const app = renderApp('/subscription/success', { token: 'tok' });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(billingMessages.sessionErrorTitle)).toBeInTheDocument();
    expect(within(alert).getByText(billingMessages.invalidSessionId)).toBeInTheDocument();
    await app.user.click(screen.getByRole('link', { name: 'Go to My Account' }));
    expect(app.location()).toBe('/account');
  });

  it('treats an empty session_id as missing', async () => {
    const api = mockSignedIn(makeUser(), billingApi().handlers);
    renderApp('/subscription/success?session_id=', { token: 'tok' });
    expect(await screen.findByText(billingMessages.invalidSessionId)).toBeInTheDocument();
    expect(api.callsTo('GET /stripe/subscription')).toHaveLength(0);
  });

  it('shows the subscription status and period end, with a link to /account', async () => {
    const user = makeUser({ subscriptionPlan: 'growth', subscriptionStatus: 'active' });
    const api = mockSignedIn(
      user,
      billingApi({ subscription: makeSubscription({ plan: 'growth', billingPeriod: 'yearly' }) }).handlers,
    );
    const app = renderApp('/subscription/success?session_id=cs_local_123', { token: 'tok' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment successful' })).toBeInTheDocument();
    expect(await screen.findByText('Growth Plan (billed yearly)')).toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(screen.getByText('Current period ends').nextSibling).toHaveTextContent('March 15, 2030');
    expect(api.callsTo('GET /stripe/subscription').length).toBeGreaterThan(0);
    await app.user.click(screen.getByRole('link', { name: 'Go to My Account' }));
    expect(app.location()).toBe('/account');
  });

  it('says when the subscription cannot be loaded', async () => {
    mockSignedIn(makeUser(), { ...billingApi().handlers, 'GET /stripe/subscription': errorAnswer(500) });
    renderApp('/subscription/success?session_id=cs_local_123', { token: 'tok' });
    expect(await screen.findByRole('alert')).toHaveTextContent(billingMessages.loadSubscriptionFailed);
  });

  it('needs a logged-in full user', async () => {
    mockApi();
    const app = renderApp('/subscription/success?session_id=cs_local_123');
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(app.location()).toBe('/login');
  });
});

describe('/subscription/cancel', () => {
  it('says the payment was cancelled and nothing was charged, with a link back to /account', async () => {
    mockSignedIn(makeUser(), billingApi().handlers);
    const app = renderApp('/subscription/cancel', { token: 'tok' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment cancelled' })).toBeInTheDocument();
    expect(screen.getByText(/No payment was processed/)).toBeInTheDocument();
    await app.user.click(screen.getByRole('link', { name: 'Back to My Account' }));
    expect(app.location()).toBe('/account');
  });
});
