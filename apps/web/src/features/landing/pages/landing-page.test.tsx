import { screen, within } from '@testing-library/react';
import {
  DEFAULT_PLAN_CATALOGUE,
  PLAN_PRICES,
  TRIAL_DAYS,
  WAITLIST_CAPS,
  YEARLY_DISCOUNT_PERCENT,
} from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { newVerifiedUser } from '../../../test/fixtures.ts';
import { defaultConfigBody, mockApi, mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

const dollars = (cents: number) => `$${cents / 100}`;

async function openAsVisitor() {
  const api = mockApi();
  const app = renderApp('/');
  await screen.findByRole('heading', { level: 1, name: 'Fill cancelled appointments with one text' });
  return { app, api };
}

describe('/ for a visitor (issue 27)', () => {
  it('says what the product does: a waitlist texted when a slot opens, the first YES gets it', async () => {
    const { app } = await openAsVisitor();
    expect(app.location()).toBe('/');
    expect(screen.queryByRole('heading', { name: 'Welcome back' })).not.toBeInTheDocument();
    expect(
      screen.getByText(/we text everyone waiting, and the first to reply YES gets the slot/),
    ).toBeInTheDocument();
    const steps = screen.getByRole('region', { name: 'How it works' });
    expect(within(steps).getAllByRole('listitem')).toHaveLength(3);
    expect(within(steps).getByRole('heading', { name: 'The first YES gets it' })).toBeInTheDocument();
  });

  it('shows the prices the server charges, from the contract, with the trial', async () => {
    await openAsVisitor();
    const cheapest = Math.min(PLAN_PRICES.STARTER.monthly.amount, PLAN_PRICES.GROWTH.monthly.amount);
    expect(screen.getByText(`${dollars(cheapest)}/month`)).toBeInTheDocument();
    expect(
      screen.getByText(`${TRIAL_DAYS} days free, no card needed.`, { exact: false }),
    ).toBeInTheDocument();

    const pricing = screen.getByRole('region', { name: 'Simple pricing' });
    const starter = within(pricing).getByRole('listitem', { name: 'Starter' });
    expect(within(starter).getByText(dollars(PLAN_PRICES.STARTER.monthly.amount))).toBeInTheDocument();
    expect(
      within(starter).getByText(`Waitlist up to ${WAITLIST_CAPS.starter} customers`),
    ).toBeInTheDocument();
    expect(
      within(starter).getByText(`billed yearly (save ${YEARLY_DISCOUNT_PERCENT}%)`, { exact: false }),
    ).toBeInTheDocument();
    const growth = within(pricing).getByRole('listitem', { name: 'Growth' });
    expect(within(growth).getByText(dollars(PLAN_PRICES.GROWTH.monthly.amount))).toBeInTheDocument();
    expect(within(growth).getByText(`Waitlist up to ${WAITLIST_CAPS.growth} customers`)).toBeInTheDocument();
    expect(within(growth).getByText('2 cancellation alerts a day')).toBeInTheDocument();
  });

  it("shows the operator's plan catalogue from GET /config: names, prices, limits and texts included", async () => {
    const plans = {
      ...DEFAULT_PLAN_CATALOGUE,
      starter: { ...DEFAULT_PLAN_CATALOGUE.starter, name: 'Solo Plan', monthlyPrice: 1900, alertsPerDay: 3 },
      growth: { ...DEFAULT_PLAN_CATALOGUE.growth, monthlyPrice: 9900, textsIncluded: 2000 },
    };
    mockApi({
      'GET /config': { body: { ...defaultConfigBody, plans } },
    });
    renderApp('/');
    expect(await screen.findByText('$19/month')).toBeInTheDocument();
    const pricing = screen.getByRole('region', { name: 'Simple pricing' });
    const solo = within(pricing).getByRole('listitem', { name: 'Solo' });
    expect(within(solo).getByText('$19')).toBeInTheDocument();
    expect(within(solo).getByText('3 cancellation alerts a day')).toBeInTheDocument();
    const growth = within(pricing).getByRole('listitem', { name: 'Growth' });
    expect(within(growth).getByText('$99')).toBeInTheDocument();
    expect(within(growth).getByText('2000 text segments a month included')).toBeInTheDocument();
  });

  it('asks nothing of the server: no session check, no pricing call', async () => {
    const { api } = await openAsVisitor();
    expect(api.calls.filter((call) => call.path !== '/config')).toEqual([]);
  });

  it('"Start free trial" opens sign-up, and "Log in" the login page', async () => {
    const { app } = await openAsVisitor();
    await app.user.click(screen.getAllByRole('link', { name: 'Start free trial' })[0]!);
    expect(await screen.findByRole('heading', { name: 'Create your account' })).toBeInTheDocument();
    expect(app.location()).toBe('/register');

    const again = renderApp('/');
    await screen.findAllByRole('heading', { level: 1, name: 'Fill cancelled appointments with one text' });
    const bar = again.container.querySelector('.landing-bar');
    await again.user.click(within(bar as HTMLElement).getByRole('link', { name: 'Log in' }));
    expect(again.location()).toBe('/login');
  });

  it('sends a signed-in owner on to /account, as before', async () => {
    mockSignedIn(
      newVerifiedUser({ businessVerification: { status: 'approved', businessPhone: '5551234567' } }),
    );
    const app = renderApp('/', { token: 'tok' });
    await screen.findByRole('heading', { level: 1, name: 'My Account' });
    expect(app.location()).toBe('/account');
    expect(screen.queryByRole('link', { name: 'Start free trial' })).not.toBeInTheDocument();
  });
});
