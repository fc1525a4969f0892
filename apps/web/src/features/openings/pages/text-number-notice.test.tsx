import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import { mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { openingsAnswer, previewAnswer, waitlistAnswer } from '../../../test/waitlist-fixtures.ts';

const noNumber = 'You have no text number yet. Request one in the Billing tab before sending texts.';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('without a verified text number', () => {
  it('Openings says so at the top, with a link to get one', async () => {
    mockSignedIn(makeUser({ plivoNumberStatus: null }), { 'GET /openings': openingsAnswer() });
    const app = renderApp('/openings', { token: 'tok' });
    const notice = await screen.findByTestId('text-number-notice');
    expect(screen.getByText('You have no text number yet')).toBeInTheDocument();
    await app.user.click(within(notice).getByRole('link', { name: 'Get your text number' }));
    await waitFor(() => expect(app.location()).toBe('/account?tab=billing'));
  });

  it('Waitlist says so too while the number is pending', async () => {
    mockSignedIn(makeUser({ plivoNumberStatus: 'pending', plivoNumber: '+15555550100' }), {
      'GET /waitlist': waitlistAnswer(),
    });
    renderApp('/waitlist', { token: 'tok' });
    const notice = await screen.findByTestId('text-number-notice');
    expect(screen.getByText('Your text number is not verified yet')).toBeInTheDocument();
    expect(within(notice).getByRole('link', { name: 'Get your text number' })).toHaveAttribute(
      'href',
      '/account?tab=billing#text-number',
    );
  });

  it('a verified number shows no notice', async () => {
    mockSignedIn(makeUser({ plivoNumberStatus: 'verified', plivoNumber: '+15555550100' }), {
      'GET /openings': openingsAnswer(),
    });
    renderApp('/openings', { token: 'tok' });
    await screen.findByRole('form', { name: 'Open a slot' });
    expect(screen.queryByTestId('text-number-notice')).not.toBeInTheDocument();
  });

  it('a refused alert shows its message next to the send button, scrolled into view, with the link', async () => {
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
      scrolled.push(this);
    });
    const api = mockSignedIn(makeUser({ plivoNumberStatus: null }), {
      'GET /openings': openingsAnswer(),
      'POST /openings/preview': previewAnswer(),
      'POST /openings': errorAnswer(403, noNumber),
    });
    const app = renderApp('/openings', { token: 'tok' });
    const form = await screen.findByRole('form', { name: 'Open a slot' });
    await app.user.type(within(form).getByLabelText('Time'), '15:30');
    await app.user.type(within(form).getByLabelText('Service'), 'Color');
    await app.user.click(within(form).getByRole('button', { name: 'See who gets the text' }));
    await app.user.click(await screen.findByRole('button', { name: 'Send cancellation alert' }));
    await waitFor(() => expect(api.callsTo('POST /openings')).toHaveLength(1));

    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent(noNumber);
    expect(within(alert).getByRole('link', { name: 'Get your text number' })).toBeInTheDocument();
    // Right above the button, not at the top of a long form.
    expect(alert.nextElementSibling).toContainElement(
      within(form).getByRole('button', { name: 'See who gets the text' }),
    );
    expect(scrolled).toContain(alert);
    expect(document.activeElement).toBe(alert);
  });

  it('another refusal (nobody fits) is shown without the number link', async () => {
    const api = mockSignedIn(makeUser({ plivoNumberStatus: null }), {
      'GET /openings': openingsAnswer(),
      'POST /openings/preview': previewAnswer(),
      'POST /openings': errorAnswer(400, 'No waiting, opted-in customers fit this time'),
    });
    const app = renderApp('/openings', { token: 'tok' });
    const form = await screen.findByRole('form', { name: 'Open a slot' });
    await app.user.type(within(form).getByLabelText('Time'), '15:30');
    await app.user.type(within(form).getByLabelText('Service'), 'Color');
    await app.user.click(within(form).getByRole('button', { name: 'See who gets the text' }));
    await app.user.click(await screen.findByRole('button', { name: 'Send cancellation alert' }));
    await waitFor(() => expect(api.callsTo('POST /openings')).toHaveLength(1));
    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent('No waiting, opted-in customers fit this time');
    expect(within(alert).queryByRole('link')).not.toBeInTheDocument();
  });
});
