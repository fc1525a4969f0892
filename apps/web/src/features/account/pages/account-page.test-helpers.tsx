import { screen, within } from '@testing-library/react';
import type { User } from '@waitlist/contract';
import { expect } from 'vitest';
import { billingApi } from '../../../test/billing-fixtures.ts';
import { makeUser } from '../../../test/fixtures.ts';
import { mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

export type Handlers = Parameters<typeof mockSignedIn>[1];

export async function openAccount(
  path = '/account',
  handlers: Handlers = {},
  user: User | (() => User) = makeUser(),
) {
  const api = mockSignedIn(user, { ...billingApi().handlers, ...handlers });
  const app = renderApp(path, { token: 'tok' });
  await screen.findByRole('heading', { level: 1, name: 'My Account' });
  return { app, api };
}

export const toastTexts = () => screen.queryAllByTestId('toast').map((toast) => toast.textContent);
export const expectToast = async (text: string) =>
  expect(
    await within(screen.getByRole('region', { name: 'Notifications' })).findByText(text),
  ).toBeInTheDocument();
