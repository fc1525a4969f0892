import { screen, waitFor, within } from '@testing-library/react';
import { offerMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import { type MockAnswer, mockSignedIn, type RecordedCall } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { makeService, makeStaff, servicesAnswers } from '../../../test/waitlist-fixtures.ts';

type Handler = MockAnswer | ((call: RecordedCall) => MockAnswer | Promise<MockAnswer>);

async function openServices(handlers: Record<string, Handler> = {}) {
  const api = mockSignedIn(makeUser(), {
    ...servicesAnswers(),
    ...handlers,
  });
  const app = renderApp('/services', { token: 'tok' });
  await screen.findByRole('heading', { level: 1, name: 'Services & staff' });
  await screen.findByRole('link', { name: 'Set the offer rules' });
  return { app, api };
}

const dialog = () => screen.getByRole('dialog');

describe('services and staff (issue 26)', () => {
  it('says what services are for while there are none', async () => {
    await openServices();
    expect(
      await screen.findByText(/Add your services so each opening is offered only to customers it fits/),
    ).toBeInTheDocument();
    expect(screen.getByText(/Add your staff if customers ask for someone by name/)).toBeInTheDocument();
  });

  it('adds a service with its length and price in dollars', async () => {
    const added = makeService({ name: 'Color', durationMinutes: 90, priceCents: 8550 });
    let list = [makeService()];
    const { app, api } = await openServices({
      'GET /services': () => ({ body: { success: true, data: list } }),
      'POST /services': () => {
        list = [...list, added];
        return { status: 201, body: { success: true, data: added, message: offerMessages.serviceSaved } };
      },
    });
    expect(await screen.findByRole('listitem', { name: 'Haircut' })).toHaveTextContent('45 min · $45.00');
    await app.user.click(screen.getByRole('button', { name: 'Add a service' }));
    await app.user.click(within(dialog()).getByRole('button', { name: 'Add service' }));
    expect(await within(dialog()).findByText(offerMessages.serviceNameRequired)).toBeInTheDocument();
    await app.user.type(within(dialog()).getByLabelText('Name'), 'Color');
    await app.user.clear(within(dialog()).getByLabelText('Length (minutes)'));
    await app.user.type(within(dialog()).getByLabelText('Length (minutes)'), '2');
    await app.user.type(within(dialog()).getByLabelText(/Price/), '85.5');
    await app.user.click(within(dialog()).getByRole('button', { name: 'Add service' }));
    expect(await within(dialog()).findByText(offerMessages.invalidDuration)).toBeInTheDocument();
    await app.user.clear(within(dialog()).getByLabelText('Length (minutes)'));
    await app.user.type(within(dialog()).getByLabelText('Length (minutes)'), '90');
    await app.user.click(within(dialog()).getByRole('button', { name: 'Add service' }));
    await waitFor(() => expect(api.callsTo('POST /services')).toHaveLength(1));
    expect(api.callsTo('POST /services')[0]?.body).toEqual({
      name: 'Color',
      durationMinutes: 90,
      priceCents: 8550,
    });
    expect(await screen.findByText(offerMessages.serviceSaved)).toBeInTheDocument();
    expect(await screen.findByRole('listitem', { name: 'Color' })).toHaveTextContent('1 h 30 min · $85.50');
  });

  it('edits and deletes a service', async () => {
    const haircut = makeService();
    const { app, api } = await openServices({
      ...servicesAnswers([haircut]),
      [`PUT /services/${haircut.id}`]: {
        body: { success: true, data: { ...haircut, priceCents: null }, message: offerMessages.serviceSaved },
      },
      [`DELETE /services/${haircut.id}`]: { body: { success: true, message: offerMessages.serviceDeleted } },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Edit Haircut' }));
    expect(within(dialog()).getByLabelText('Name')).toHaveValue('Haircut');
    expect(within(dialog()).getByLabelText(/Price/)).toHaveValue('45.00');
    await app.user.clear(within(dialog()).getByLabelText(/Price/));
    await app.user.click(within(dialog()).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.callsTo(`PUT /services/${haircut.id}`)).toHaveLength(1));
    expect(api.callsTo(`PUT /services/${haircut.id}`)[0]?.body).toEqual({
      name: 'Haircut',
      durationMinutes: 45,
      priceCents: null,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await app.user.click(screen.getByRole('button', { name: 'Delete Haircut' }));
    expect(dialog()).toHaveTextContent('Delete Haircut?');
    await app.user.click(within(dialog()).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.callsTo(`DELETE /services/${haircut.id}`)).toHaveLength(1));
    expect(await screen.findByText(offerMessages.serviceDeleted)).toBeInTheDocument();
  });

  it('adds, renames and deletes staff, and shows the server’s refusal', async () => {
    const ana = makeStaff({ name: 'Ana' });
    const { app, api } = await openServices({
      ...servicesAnswers([], [ana]),
      'POST /staff': errorAnswer(409, offerMessages.staffNameTaken('Ana'), {
        name: offerMessages.staffNameTaken('Ana'),
      }),
      [`PUT /staff/${ana.id}`]: {
        body: { success: true, data: { id: ana.id, name: 'Ana Ruiz' }, message: offerMessages.staffSaved },
      },
      [`DELETE /staff/${ana.id}`]: { body: { success: true, message: offerMessages.staffDeleted } },
    });
    await screen.findByRole('listitem', { name: 'Ana' });
    await app.user.click(screen.getByRole('button', { name: 'Add a staff member' }));
    await app.user.type(within(dialog()).getByLabelText('Name'), 'Ana');
    await app.user.click(within(dialog()).getByRole('button', { name: 'Add staff member' }));
    expect(await within(dialog()).findAllByText(offerMessages.staffNameTaken('Ana'))).not.toHaveLength(0);
    await app.user.click(within(dialog()).getByRole('button', { name: 'Cancel' }));

    await app.user.click(screen.getByRole('button', { name: 'Edit Ana' }));
    await app.user.type(within(dialog()).getByLabelText('Name'), ' Ruiz');
    await app.user.click(within(dialog()).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.callsTo(`PUT /staff/${ana.id}`)[0]?.body).toEqual({ name: 'Ana Ruiz' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await app.user.click(screen.getByRole('button', { name: 'Delete Ana' }));
    await app.user.click(within(dialog()).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.callsTo(`DELETE /staff/${ana.id}`)).toHaveLength(1));
  });

  it('shows an error with a retry when the list cannot be read', async () => {
    await openServices({ 'GET /services': errorAnswer(500, 'Something broke') });
    expect(await screen.findByText('Something broke')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add a service' })).toBeDisabled();
  });
});

describe('offer rules (moved to Settings, issue 39)', () => {
  it('are not on the Services page, which links to them', async () => {
    const { app, api } = await openServices({
      'GET /settings/offers': {
        body: { success: true, data: { sendFrom: '08:00', sendUntil: '20:00', dailyOfferCap: 3 } },
      },
    });
    expect(screen.queryByRole('form', { name: 'Offer rules' })).not.toBeInTheDocument();
    expect(api.callsTo('GET /settings/offers')).toHaveLength(0);
    await app.user.click(screen.getByRole('link', { name: 'Set the offer rules' }));
    expect(app.location()).toBe('/settings/offer-rules');
    expect(await screen.findByRole('form', { name: 'Offer rules' })).toBeInTheDocument();
  });
});
