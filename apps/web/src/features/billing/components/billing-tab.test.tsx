import { screen, waitFor, within } from '@testing-library/react';
import { billingMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { makeInvoice, makeSubscription, unixNoon } from '../../../test/billing-fixtures.ts';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import { expectToast, inDays, openBillingTab } from './billing-tab.test-helpers.tsx';

describe('trial banner', () => {
  it('shows the days left of the free trial', async () => {
    await openBillingTab({ user: makeUser({ trialEndDate: inDays(4) }) });
    expect(screen.getByText('Free Trial: 4 days left')).toBeInTheDocument();
  });

  it('turns into the red Expired banner with Upgrade Now → /account?tab=plan', async () => {
    const { app } = await openBillingTab({ user: makeUser({ trialEndDate: inDays(-2) }) });
    const banner = screen
      .getByText('Expired', { selector: '.trial-banner__title' })
      .closest('.trial-banner') as HTMLElement;
    expect(banner).toHaveClass('trial-banner--expired');
    expect(banner).toHaveAttribute('role', 'alert');
    expect(within(banner).getByText(billingMessages.trialExpired)).toBeInTheDocument();
    await app.user.click(within(banner).getByRole('link', { name: 'Upgrade Now' }));
    expect(app.location()).toBe('/account?tab=plan');
    expect(await screen.findByRole('heading', { level: 2, name: 'Current Plan' })).toBeInTheDocument();
  });

  it('is not shown to paying owners; a failed payment is', async () => {
    await openBillingTab({
      user: makeUser({ subscriptionPlan: 'starter', subscriptionStatus: 'past_due' }),
      billing: { subscription: makeSubscription({ status: 'past_due' }) },
    });
    expect(screen.queryByText(/days left/)).not.toBeInTheDocument();
    expect(screen.getByText(billingMessages.pastDue)).toBeInTheDocument();
  });
});

describe('subscription status box', () => {
  it('shows the plan, its badges and the renewal date, with Upgrade Plan → the plan tab', async () => {
    const { app } = await openBillingTab({
      user: makeUser({
        subscriptionPlan: 'starter',
        subscriptionStatus: 'active',
        plivoNumberStatus: 'pending',
      }),
      billing: { subscription: makeSubscription() },
    });
    const box = screen.getByRole('heading', { name: 'Subscription' }).closest('.card') as HTMLElement;
    expect(within(box).getByText('Starter Plan')).toBeInTheDocument();
    expect(within(box).getByText('Active')).toBeInTheDocument();
    expect(within(box).getByText('Text Number Verification Pending')).toBeInTheDocument();
    expect(within(box).getByText('Renews on March 15, 2030')).toBeInTheDocument();
    await app.user.click(within(box).getByRole('link', { name: 'Upgrade Plan' }));
    expect(app.location()).toBe('/account?tab=plan');
  });

  it('asks for a billing portal session for Manage Billing, and says so when it fails', async () => {
    const { app, api } = await openBillingTab({
      handlers: () => ({ 'POST /stripe/create-portal-session': errorAnswer(500) }),
    });
    await app.user.click(screen.getByRole('button', { name: 'Manage Billing' }));
    await expectToast(billingMessages.createPortalSessionFailed);
    expect(api.callsTo('POST /stripe/create-portal-session')).toHaveLength(1);
  });
});

describe('invoice history', () => {
  it('lists date, number, amount and status, newest first, with View and PDF in new tabs', async () => {
    await openBillingTab({
      billing: {
        invoices: [
          makeInvoice(),
          makeInvoice({
            id: 'in_2',
            number: 'WT-0002',
            created: unixNoon(2030, 3, 1),
            amount_paid: 0,
            amount_due: 3250,
            status: 'open',
            hosted_invoice_url: '/api/v1/billing/local/invoices/inv_def',
            invoice_pdf: '/api/v1/billing/local/invoices/inv_def/pdf',
          }),
          makeInvoice({ id: 'in_3', number: 'WT-0003', created: unixNoon(2030, 1, 1), status: 'void' }),
        ],
      },
    });
    const table = screen.getByRole('table', { name: 'Invoice history' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(0, 4)
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Mar 1, 2030', 'WT-0002', '$32.50', 'Open'],
      ['Feb 15, 2030', 'WT-0001', '$29', 'Paid'],
      ['Jan 1, 2030', 'WT-0003', '$29', 'Void'],
    ]);
    const view = within(rows[1]!).getByRole('link', { name: 'View invoice WT-0001' });
    expect(view).toHaveAttribute('href', '/api/v1/billing/local/invoices/inv_abc');
    expect(view).toHaveAttribute('target', '_blank');
    expect(view).toHaveAttribute('rel', 'noopener noreferrer');
    const pdf = within(rows[1]!).getByRole('link', { name: 'PDF of invoice WT-0001' });
    expect(pdf).toHaveAttribute('href', '/api/v1/billing/local/invoices/inv_abc/pdf');
    expect(pdf).toHaveAttribute('target', '_blank');
  });

  it('says when there are none yet', async () => {
    await openBillingTab();
    expect(
      screen.getByText('No invoices yet. They appear here after your first payment.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});

describe('phone number section', () => {
  it('sits in the side column with its heading (its states: phone-number-section.test.tsx)', async () => {
    await openBillingTab();
    const section = screen.getByTestId('phone-number-section');
    expect(within(section).getByRole('heading', { name: 'Text Number' })).toBeInTheDocument();
    expect(await within(section).findByRole('button', { name: 'Request a number' })).toBeInTheDocument();
  });
});

describe('billing details (SPEC §7 POST /stripe/update-billing-details)', () => {
  const detailsForm = () => screen.getByRole('form', { name: 'Billing details' });

  it('starts from the business profile and sends the name and address on invoices', async () => {
    const { app, api } = await openBillingTab({
      handlers: () => ({
        'POST /stripe/update-billing-details': {
          body: { success: true, message: billingMessages.billingDetailsUpdated },
        },
        'POST /notifications/billing-update': { body: { success: true, message: 'sent' } },
      }),
    });
    const form = detailsForm();
    expect(within(form).getByLabelText('Name on invoices')).toHaveValue('Bella Salon');
    expect(within(form).getByLabelText(/Address/)).toHaveValue('12 Main St');
    expect(within(form).getByLabelText('Country')).toHaveValue('US');
    const save = within(form).getByRole('button', { name: 'Save Billing Details' });
    expect(save).toBeDisabled();

    await app.user.clear(within(form).getByLabelText('Name on invoices'));
    await app.user.type(within(form).getByLabelText('Name on invoices'), 'Bella Salon LLC');
    await app.user.clear(within(form).getByLabelText(/ZIP code/));
    await app.user.type(within(form).getByLabelText(/ZIP code/), '62704');
    await app.user.click(save);

    await expectToast(billingMessages.billingDetailsUpdated);
    expect(api.callsTo('POST /stripe/update-billing-details')[0]!.body).toEqual({
      name: 'Bella Salon LLC',
      address: { line1: '12 Main St', city: 'Springfield', state: 'IL', postal_code: '62704', country: 'US' },
    });
    await waitFor(() => expect(api.callsTo('POST /notifications/billing-update')).toHaveLength(1));
    expect(save).toBeDisabled();
  });

  it('checks the name and country first, and shows the SPEC default when saving fails', async () => {
    const { app, api } = await openBillingTab({
      handlers: () => ({ 'POST /stripe/update-billing-details': errorAnswer(500) }),
    });
    const form = detailsForm();
    await app.user.clear(within(form).getByLabelText('Name on invoices'));
    await app.user.clear(within(form).getByLabelText('Country'));
    await app.user.type(within(form).getByLabelText('Country'), 'U');
    await app.user.click(within(form).getByRole('button', { name: 'Save Billing Details' }));
    expect(await within(form).findByText('Enter the name to put on invoices')).toBeInTheDocument();
    expect(within(form).getByText('A 2-letter country code, like US')).toBeInTheDocument();
    expect(api.callsTo('POST /stripe/update-billing-details')).toHaveLength(0);

    await app.user.type(within(form).getByLabelText('Name on invoices'), 'Bella');
    await app.user.type(within(form).getByLabelText('Country'), 's');
    await app.user.click(within(form).getByRole('button', { name: 'Save Billing Details' }));
    await expectToast('Failed to update billing details');
    expect(api.callsTo('POST /stripe/update-billing-details')[0]!.body).toMatchObject({
      address: { country: 'US' },
    });
  });
});
