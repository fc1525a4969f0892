import { screen, waitFor, within } from '@testing-library/react';
import { DEFAULT_DAILY_OFFER_CAP, offerMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/fixtures.ts';
import { type MockAnswer, mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

const settingsAnswer = (
  data = { sendFrom: '08:00', sendUntil: '20:00', dailyOfferCap: DEFAULT_DAILY_OFFER_CAP },
) => ({
  body: { success: true, data },
});

async function openOfferRules(handlers: Record<string, MockAnswer> = {}) {
  const api = mockSignedIn(makeUser(), { 'GET /settings/offers': settingsAnswer(), ...handlers });
  const app = renderApp('/settings/offer-rules', { token: 'tok' });
  await screen.findByRole('heading', { level: 1, name: 'Offer rules' });
  await screen.findByRole('form', { name: 'Offer rules' });
  return { app, api };
}

describe('offer rules in Settings', () => {
  it('limits the window to 8:00 am–9:00 pm and says why', async () => {
    await openOfferRules();
    const rules = screen.getByRole('form', { name: 'Offer rules' });
    const from = within(rules).getByLabelText('Texts go out from');
    expect(from).toHaveValue('08:00');
    expect(within(rules).getByLabelText('Until')).toHaveValue('20:00');
    const choices = within(from)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(choices[0]).toBe('8:00 am');
    expect(choices.at(-1)).toBe('9:00 pm');
    expect(within(rules).getByLabelText('Offers a customer gets a day')).toHaveValue(3);
    expect(screen.getByText(/Carriers and the TCPA expect no marketing texts at night/)).toBeInTheDocument();
  });

  it('checks the rules before saving them', async () => {
    const saved = { sendFrom: '09:00', sendUntil: '21:00', dailyOfferCap: 5 };
    const { app, api } = await openOfferRules({
      'PUT /settings/offers': {
        body: { success: true, data: saved, message: offerMessages.settingsSaved },
      },
    });
    const rules = screen.getByRole('form', { name: 'Offer rules' });
    await app.user.selectOptions(within(rules).getByLabelText('Texts go out from'), '20:30');
    const cap = within(rules).getByLabelText('Offers a customer gets a day');
    await app.user.clear(cap);
    await app.user.type(cap, '21');
    await app.user.click(within(rules).getByRole('button', { name: 'Save offer rules' }));
    expect(await within(rules).findByText(offerMessages.invalidSendWindow)).toBeInTheDocument();
    expect(within(rules).getByText(offerMessages.invalidDailyCap)).toBeInTheDocument();
    expect(api.callsTo('PUT /settings/offers')).toHaveLength(0);

    await app.user.selectOptions(within(rules).getByLabelText('Texts go out from'), '09:00');
    await app.user.selectOptions(within(rules).getByLabelText('Until'), '21:00');
    await app.user.clear(cap);
    await app.user.type(cap, '5');
    await app.user.click(within(rules).getByRole('button', { name: 'Save offer rules' }));
    await waitFor(() => expect(api.callsTo('PUT /settings/offers')).toHaveLength(1));
    expect(api.callsTo('PUT /settings/offers')[0]?.body).toEqual(saved);
    expect(await screen.findByText(offerMessages.settingsSaved)).toBeInTheDocument();
  });
});
