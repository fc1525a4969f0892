import { screen, waitFor, within } from '@testing-library/react';
import { type Customer, waitlistMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import { type MockAnswer, mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import {
  makeCustomer,
  makeMessage,
  templatesAnswer,
  waitlistAnswer,
} from '../../../test/waitlist-fixtures.ts';

async function openTextDialog(
  customer: Customer,
  { verified = true, send }: { verified?: boolean; send?: MockAnswer } = {},
) {
  const api = mockSignedIn(
    makeUser({ businessName: 'Bella Salon', plivoNumberStatus: verified ? 'verified' : 'pending' }),
    {
      'GET /waitlist': waitlistAnswer({ customers: [customer] }),
      'GET /message-templates': templatesAnswer(),
      [`POST /waitlist/${customer.id}/messages`]: send ?? {
        status: 201,
        body: { success: true, data: makeMessage(), message: waitlistMessages.textQueued },
      },
    },
  );
  const app = renderApp('/waitlist', { token: 'tok' });
  await app.user.click(await screen.findByRole('button', { name: `Send a text to ${customer.name}` }));
  const dialog = screen.getByRole('dialog', { name: `Text ${customer.name}` });
  return { app, api, dialog };
}

const meter = () => screen.getByTestId('segment-meter');

describe('send a text', () => {
  it('fills a template with the name and business, and counts the opt-out line of a first text', async () => {
    const maria = makeCustomer({ name: 'Maria', firstTextSent: false });
    const { app, dialog } = await openTextDialog(maria);
    expect(within(dialog).getByTestId('opt-out-notice')).toHaveTextContent(
      'This is the first text Maria gets from you, so it ends with “Reply STOP to opt out”.',
    );
    await waitFor(() =>
      expect(within(dialog).getByRole('option', { name: 'Appointment reminder' })).toBeEnabled(),
    );
    await app.user.selectOptions(within(dialog).getByLabelText('Template'), 'reminder');
    const message = within(dialog).getByLabelText('Message');
    expect(message).toHaveValue('Hi Maria, a reminder of your appointment at Bella Salon on {time}.');
    expect(within(dialog).getByText(/Replace \{time\} before sending/)).toBeInTheDocument();

    await app.user.clear(message);
    await app.user.type(message, 'Hi Maria');
    // "Hi Maria" (8) + newline + "Reply STOP to opt out" (21)
    expect(meter()).toHaveTextContent('30 / 160');
  });

  it('refuses a text that still has a placeholder, then sends the edited text', async () => {
    const maria = makeCustomer({ name: 'Maria', firstTextSent: true });
    const { app, api, dialog } = await openTextDialog(maria);
    expect(within(dialog).queryByTestId('opt-out-notice')).not.toBeInTheDocument();
    await waitFor(() =>
      expect(within(dialog).getByRole('option', { name: 'Appointment confirmation' })).toBeEnabled(),
    );
    await app.user.selectOptions(within(dialog).getByLabelText('Template'), 'confirmation');
    await app.user.click(within(dialog).getByRole('button', { name: 'Send text' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Replace {time} with the real value before sending.',
    );
    expect(api.callsTo(`POST /waitlist/${maria.id}/messages`)).toHaveLength(0);

    const message = within(dialog).getByLabelText('Message');
    await app.user.clear(message);
    await app.user.type(message, 'See you Tuesday at 3 PM 😊');
    expect(meter()).toHaveTextContent('UCS-2');
    expect(meter()).toHaveTextContent('/ 70');
    await app.user.click(within(dialog).getByRole('button', { name: 'Send text' }));
    await waitFor(() => expect(api.callsTo(`POST /waitlist/${maria.id}/messages`)).toHaveLength(1));
    expect(api.callsTo(`POST /waitlist/${maria.id}/messages`)[0]?.body).toEqual({
      body: 'See you Tuesday at 3 PM 😊',
    });
    expect(await screen.findByText(waitlistMessages.textQueued)).toBeInTheDocument();
  });

  it('says why nothing can go out while the number is not verified', async () => {
    const { dialog } = await openTextDialog(makeCustomer({ name: 'Maria' }), { verified: false });
    expect(within(dialog).getByText('Your text number is not verified')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Set up your number' })).toHaveAttribute(
      'href',
      '/account?tab=billing#text-number',
    );
    expect(within(dialog).getByRole('button', { name: 'Send text' })).toBeDisabled();
  });

  it('shows the server refusal', async () => {
    const { app, dialog } = await openTextDialog(makeCustomer({ name: 'Maria', firstTextSent: true }), {
      send: errorAnswer(403, 'Maria has opted out of texts.'),
    });
    await app.user.type(within(dialog).getByLabelText('Message'), 'Hello');
    await app.user.click(within(dialog).getByRole('button', { name: 'Send text' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Maria has opted out of texts.');
  });
});
