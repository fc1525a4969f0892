import { screen, waitFor, within } from '@testing-library/react';
import type { User } from '@waitlist/contract';
import { expect } from 'vitest';
import { type BillingState, billingApi } from '../../../test/billing-fixtures.ts';
import { makeUser } from '../../../test/fixtures.ts';
import { type MockAnswer, mockSignedIn, type RecordedCall } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

export type Handler = MockAnswer | ((call: RecordedCall) => MockAnswer | Promise<MockAnswer>);
export const DAY = 86_400_000;
export const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

export const trialUser = (overrides: Partial<User> = {}) =>
  makeUser({ trialEndDate: inDays(3), ...overrides });
export const starterUser = () =>
  makeUser({ subscriptionPlan: 'starter', subscriptionPeriod: 'monthly', subscriptionStatus: 'active' });

export async function openPlanTab(
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

export const planCard = (name: string) => screen.getByRole('article', { name });
export const currentPlan = () =>
  screen.getByRole('heading', { name: 'Current Plan' }).closest('.card') as HTMLElement;
export const toastRegion = () => screen.getByRole('region', { name: 'Notifications' });
export const expectToast = async (text: string) =>
  expect(await within(toastRegion()).findByText(text)).toBeInTheDocument();
export const indexOfCall = (api: { calls: RecordedCall[] }, key: string, from = 0) =>
  api.calls.findIndex((call, index) => index >= from && `${call.method} ${call.path}` === key);
