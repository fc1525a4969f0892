import { screen, waitFor, within } from '@testing-library/react';
import { waitlistMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/fixtures.ts';
import { type MockAnswer, mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { makeCustomer, templatesAnswer, waitlistAnswer } from '../../../test/waitlist-fixtures.ts';

/** Issue 28: the owner's screens (in English) show, set and filter each customer's language. */
async function openWaitlist(handlers: Record<string, MockAnswer> = {}) {
  const api = mockSignedIn(makeUser({ plivoNumberStatus: 'verified' }), {
    'GET /waitlist': waitlistAnswer({
      customers: [makeCustomer({ name: 'Ann Lee' }), makeCustomer({ name: 'Lucía Gómez', language: 'es' })],
    }),
    'GET /message-templates': templatesAnswer(),
    ...handlers,
  });
  const app = renderApp('/waitlist', { token: 'tok' });
  await screen.findByRole('heading', { level: 1, name: 'Waitlist' });
  await waitFor(() => expect(screen.queryByText('Loading your waitlist…')).not.toBeInTheDocument());
  return { app, api };
}
const row = (name: string) => screen.getByRole('listitem', { name });
const waitlistUrls = (fetchMock: { mock: { calls: unknown[][] } }) =>
  fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('/waitlist'));

describe('a customer language on the waitlist', () => {
  it('marks a Spanish customer with an ES badge, and no one else', async () => {
    await openWaitlist();
    expect(within(row('Lucía Gómez')).getByText('ES')).toHaveAttribute('aria-hidden', 'true');
    expect(within(row('Lucía Gómez')).getByText('Spanish')).toBeInTheDocument();
    expect(within(row('Ann Lee')).queryByText('ES')).not.toBeInTheDocument();
    expect(within(row('Ann Lee')).queryByText('Spanish')).not.toBeInTheDocument();
  });

  it('filters by language through the API, and back to all', async () => {
    const { app, api } = await openWaitlist();
    const language = screen.getByRole('combobox', { name: 'Language' });
    expect(language).toHaveDisplayValue('All languages');
    await app.user.selectOptions(language, 'es');
    await waitFor(() => expect(waitlistUrls(api.fetchMock)).toContain('/api/v1/waitlist?language=es'));
    await app.user.click(screen.getByRole('button', { name: 'Booked' }));
    await waitFor(() =>
      expect(waitlistUrls(api.fetchMock)).toContain('/api/v1/waitlist?status=booked&language=es'),
    );
    await app.user.selectOptions(language, '');
    await waitFor(() => expect(waitlistUrls(api.fetchMock).at(-1)).toBe('/api/v1/waitlist?status=booked'));
  });

  it('adds a customer in English unless the owner chooses Español', async () => {
    const { app, api } = await openWaitlist({
      'POST /waitlist': {
        status: 201,
        body: { success: true, data: makeCustomer(), message: waitlistMessages.customerAdded },
      },
    });
    await app.user.click(screen.getByRole('button', { name: 'Add customer' }));
    const form = screen.getByRole('dialog');
    const language = within(form).getByLabelText('Language');
    expect(language).toHaveDisplayValue('English');
    expect(
      within(language)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['English', 'Español']);
    await app.user.type(within(form).getByLabelText('Name'), 'Lucía Gómez');
    await app.user.type(within(form).getByLabelText('Mobile phone'), '212 555 0141');
    await app.user.selectOptions(within(form).getByLabelText('How did they agree to texts?'), 'verbal');
    await app.user.selectOptions(language, 'Español');
    await app.user.click(within(form).getByRole('button', { name: 'Add to waitlist' }));
    await waitFor(() => expect(api.callsTo('POST /waitlist')).toHaveLength(1));
    expect(api.callsTo('POST /waitlist')[0]?.body).toMatchObject({ name: 'Lucía Gómez', language: 'es' });
  });

  it('edits starting from the saved language, and shows the server refusal on the field', async () => {
    const lucia = makeCustomer({ name: 'Lucía Gómez', language: 'es' });
    const { app, api } = await openWaitlist({
      'GET /waitlist': waitlistAnswer({ customers: [lucia] }),
      [`PATCH /waitlist/${lucia.id}`]: {
        status: 400,
        body: {
          success: false,
          message: waitlistMessages.invalidLanguage,
          errors: { language: waitlistMessages.invalidLanguage },
        },
      },
    });
    await app.user.click(screen.getByRole('button', { name: 'Edit Lucía Gómez' }));
    const form = screen.getByRole('dialog');
    const language = within(form).getByLabelText('Language');
    expect(language).toHaveDisplayValue('Español');
    await app.user.selectOptions(language, 'English');
    await app.user.click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.callsTo(`PATCH /waitlist/${lucia.id}`)).toHaveLength(1));
    expect(api.callsTo(`PATCH /waitlist/${lucia.id}`)[0]?.body).toMatchObject({ language: 'en' });
    await waitFor(() => expect(language).toHaveAttribute('aria-invalid', 'true'));
    expect(language).toHaveAccessibleDescription(expect.stringContaining(waitlistMessages.invalidLanguage));
  });

  it('tells the owner the CSV file may carry a language column', async () => {
    const { app } = await openWaitlist();
    await app.user.click(screen.getByRole('button', { name: 'Import CSV' }));
    expect(
      within(screen.getByRole('dialog')).getByText(
        /optionally notes, service, stylist \(or staff\) and language \(English or Spanish/,
      ),
    ).toBeInTheDocument();
  });
});
