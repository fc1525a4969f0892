import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { billingApi } from '../../../test/billing-fixtures.ts';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import { type MockAnswer, mockSignedIn, type RecordedCall } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

type Handler = MockAnswer | ((call: RecordedCall) => MockAnswer | Promise<MockAnswer>);
type PhoneState = {
  number: string | null;
  status: 'pending' | 'verified' | 'failed' | null;
  error: string | null;
};

const answer = (data: PhoneState, message?: string) => ({
  body: { success: true, data, ...(message ? { message } : {}) },
});

async function openSection(initial: PhoneState, handlers: Record<string, Handler> = {}) {
  const billing = billingApi();
  const api = mockSignedIn(makeUser({ trialEndDate: new Date(Date.now() + 4 * 86_400_000).toISOString() }), {
    ...billing.handlers,
    'GET /phone-number': answer(initial),
    ...handlers,
  });
  const app = renderApp('/account?tab=billing', { token: 'tok' });
  const section = await screen.findByTestId('phone-number-section');
  await waitFor(() =>
    expect(within(section).queryByText('Loading your text number…')).not.toBeInTheDocument(),
  );
  return { app, api, section };
}

const notice = /No text goes out until your number is verified/;

describe('phone number section', () => {
  it('takes "Get your text number" straight to the card: in view, with the focus on it (issue 27)', async () => {
    const billing = billingApi();
    mockSignedIn(makeUser({ trialEndDate: new Date(Date.now() + 4 * 86_400_000).toISOString() }), {
      ...billing.handlers,
      'GET /phone-number': answer({ number: null, status: null, error: null }),
    });
    const scrolled: Element[] = [];
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    try {
      renderApp('/account?tab=billing#text-number', { token: 'tok' });
      const section = await screen.findByTestId('phone-number-section');
      expect(section).toHaveAttribute('id', 'text-number');
      await waitFor(() => expect(section).toHaveFocus());
      expect(scrolled).toContain(section);
      expect(section).toHaveAccessibleName('Text Number');
    } finally {
      Element.prototype.scrollIntoView = original;
    }
  });

  it('without a number: explains, and requests one with an optional area code', async () => {
    const { app, api, section } = await openSection(
      { number: null, status: null, error: null },
      {
        'POST /phone-number/request': answer(
          { number: '+12125550100', status: 'pending', error: null },
          'Number requested. It will be verified shortly.',
        ),
      },
    );
    expect(within(section).getByText(notice)).toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: 'Verify' })).not.toBeInTheDocument();

    await app.user.type(within(section).getByLabelText(/Area code/), '1');
    await app.user.click(within(section).getByRole('button', { name: 'Request a number' }));
    expect(within(section).getByText('An area code is 3 digits, like 212.')).toBeInTheDocument();
    expect(api.callsTo('POST /phone-number/request')).toHaveLength(0);

    await app.user.clear(within(section).getByLabelText(/Area code/));
    await app.user.type(within(section).getByLabelText(/Area code/), '212');
    await app.user.click(within(section).getByRole('button', { name: 'Request a number' }));
    await waitFor(() => expect(api.callsTo('POST /phone-number/request')).toHaveLength(1));
    expect(api.callsTo('POST /phone-number/request')[0]?.body).toEqual({ areaCode: '212' });
    expect(await within(section).findByText('(212) 555-0100')).toBeInTheDocument();
    expect(within(section).getByText('Pending')).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Verify' })).toBeInTheDocument();
  });

  it('sends no area code when left empty', async () => {
    const { app, api, section } = await openSection(
      { number: null, status: null, error: null },
      { 'POST /phone-number/request': answer({ number: '+15555550100', status: 'pending', error: null }) },
    );
    await app.user.click(within(section).getByRole('button', { name: 'Request a number' }));
    await waitFor(() => expect(api.callsTo('POST /phone-number/request')).toHaveLength(1));
    expect(api.callsTo('POST /phone-number/request')[0]?.body).toEqual({});
  });

  it('pending: verifies, and shows verified with the number', async () => {
    const { app, api, section } = await openSection(
      { number: '+15555550100', status: 'pending', error: null },
      {
        'POST /phone-number/verify': answer(
          { number: '+15555550100', status: 'verified', error: null },
          'Your text number is verified.',
        ),
      },
    );
    expect(within(section).getByText('Pending')).toBeInTheDocument();
    expect(within(section).getByText(notice)).toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: 'Request a number' })).not.toBeInTheDocument();
    await app.user.click(within(section).getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(api.callsTo('POST /phone-number/verify')).toHaveLength(1));
    expect(await within(section).findByText('Verified')).toBeInTheDocument();
    expect(within(section).queryByText(notice)).not.toBeInTheDocument();
    expect(within(section).queryByRole('button')).not.toBeInTheDocument();
    expect(await screen.findByText('Your text number is verified.')).toBeInTheDocument();
  });

  it('failed: shows the reason, with verify again and request another', async () => {
    const { section } = await openSection({
      number: '+15555550100',
      status: 'failed',
      error: 'The carrier rejected the business registration.',
    });
    expect(within(section).getByText('Failed')).toBeInTheDocument();
    expect(within(section).getByText(/The carrier rejected the business registration\./)).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Verify' })).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Request a number' })).toBeInTheDocument();
    expect(within(section).getByText(notice)).toBeInTheDocument();
  });

  it('verified: shows the number without buttons', async () => {
    const { section } = await openSection({ number: '+15555550100', status: 'verified', error: null });
    expect(within(section).getByTestId('text-number')).toHaveTextContent('(555) 555-0100');
    expect(within(section).getByText('Verified')).toBeInTheDocument();
    expect(within(section).queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows a refused request and a load failure', async () => {
    const { app, section } = await openSection(
      { number: null, status: null, error: null },
      { 'POST /phone-number/request': errorAnswer(502, 'No numbers are available in area code 999.') },
    );
    await app.user.click(within(section).getByRole('button', { name: 'Request a number' }));
    expect(
      await within(section).findByText('No numbers are available in area code 999.'),
    ).toBeInTheDocument();
  });

  it('offers Try again when the number cannot be loaded', async () => {
    const { section } = await openSection(
      { number: null, status: null, error: null },
      { 'GET /phone-number': errorAnswer(500) },
    );
    expect(await within(section).findByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('phone number section on the local phone', () => {
  it('a 555-01xx test number verifies at once: the card goes straight to Verified', async () => {
    const localConfig = {
      body: {
        success: true,
        googleClientId: null,
        facebookAppId: null,
        appleClientId: null,
        localMailbox: true,
        localPhone: true,
        billing: { provider: 'local', publishableKey: null, configured: true },
      },
    };
    const { app, api, section } = await openSection(
      { number: null, status: null, error: null },
      {
        'GET /config': localConfig,
        'POST /phone-number/request': answer({ number: '+15555550142', status: 'pending', error: null }),
        'POST /phone-number/verify': answer(
          { number: '+15555550142', status: 'verified', error: null },
          'Your text number is verified and ready to send texts.',
        ),
      },
    );
    await app.user.click(within(section).getByRole('button', { name: 'Request a number' }));
    expect(await within(section).findByText('Verified')).toBeInTheDocument();
    expect(within(section).getByText('(555) 555-0142')).toBeInTheDocument();
    expect(within(section).queryByText('Pending')).not.toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: 'Verify' })).not.toBeInTheDocument();
    expect(api.callsTo('POST /phone-number/verify')).toHaveLength(1);
    expect(
      await screen.findByText('Your text number is verified and ready to send texts.'),
    ).toBeInTheDocument();
  });
});
