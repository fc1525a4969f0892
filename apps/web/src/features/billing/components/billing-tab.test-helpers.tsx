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

export async function openBillingTab(
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

export const toastRegion = () => screen.getByRole('region', { name: 'Notifications' });
export const expectToast = async (text: string) =>
  expect(await within(toastRegion()).findByText(text)).toBeInTheDocument();
export const cardRow = (name: string) => screen.getByRole('listitem', { name });
export const addCardForm = () => screen.getByRole('form', { name: 'Add a card' });
