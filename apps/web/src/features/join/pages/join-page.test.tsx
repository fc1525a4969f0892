import { act, screen, waitFor } from '@testing-library/react';
import { customerWords } from '@waitlist/contract';
import { describe, expect, it, vi } from 'vitest';
import { errorAnswer } from '../../../test/fixtures.ts';
import { type MockAnswer, mockApi } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

const joinWords = customerWords().join;

// The proof-of-work widget (a web component) is not drawn in jsdom: the tests play its events.
vi.mock('altcha/external', () => {
  // As the real module does: the widget's registries, its English words already set.
  const words = new Map<string, Record<string, string>>([
    ['en', { label: "I'm not a robot", reload: 'Reload' }],
  ]);
  Object.assign(globalThis, {
    $altcha: {
      algorithms: new Map(),
      i18n: { get: (language: string) => words.get(language), set: words.set.bind(words) },
    },
  });
  return {};
});
const widgetWords = () =>
  (
    globalThis as unknown as { $altcha: { i18n: { get(language: string): Record<string, string> } } }
  ).$altcha.i18n.get('en');
vi.mock('altcha/workers/pbkdf2?worker', () => ({ default: class {} }));
vi.mock('altcha/altcha.css', () => ({}));

const pageAnswer = (full = false, proofRequired = false): MockAnswer => ({
  body: {
    success: true,
    data: {
      businessName: 'Bella Salon',
      consentText: joinWords.consent('Bella Salon'),
      full,
      proofRequired,
    },
  },
});

function openJoin(handlers: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({ 'GET /join/bella-salon-abc12': pageAnswer(), ...handlers });
  const app = renderApp('/join/bella-salon-abc12');
  return { api, app };
}

describe('the public join page (issue 15)', () => {
  it('joins with a name, a mobile number and consent, then says to reply YES', async () => {
    const { api, app } = openJoin({
      'POST /join/bella-salon-abc12': {
        body: { success: true, message: joinWords.checkYourTexts('Bella Salon') },
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Bella Salon' })).toBeInTheDocument();
    await app.user.type(screen.getByLabelText('Your name'), 'Priya Shah');
    await app.user.type(screen.getByLabelText('Mobile number'), '212 555 0141');
    await app.user.click(screen.getByLabelText(joinWords.consent('Bella Salon')));
    await app.user.click(screen.getByRole('button', { name: 'Join the waitlist' }));
    expect(await screen.findByText(joinWords.checkYourTexts('Bella Salon'))).toBeInTheDocument();
    expect(api.callsTo('POST /join/bella-salon-abc12')[0]!.body).toEqual({
      name: 'Priya Shah',
      phone: '212 555 0141',
      consent: true,
      website: '',
      language: 'en',
    });
  });

  it('says what is missing before sending anything', async () => {
    const { api, app } = openJoin();
    await screen.findByRole('heading', { level: 1, name: 'Bella Salon' });
    await app.user.click(screen.getByRole('button', { name: 'Join the waitlist' }));
    expect(await screen.findByText(joinWords.nameRequired)).toBeInTheDocument();
    expect(screen.getByText(joinWords.phoneRequired)).toBeInTheDocument();
    expect(screen.getByText(joinWords.consentRequired)).toBeInTheDocument();
    expect(api.callsTo('POST /join/bella-salon-abc12')).toHaveLength(0);
  });

  it('hides the honeypot from people and screen readers', async () => {
    openJoin();
    await screen.findByRole('heading', { level: 1, name: 'Bella Salon' });
    expect(screen.queryByRole('textbox', { name: 'Website' })).not.toBeInTheDocument();
    const trap = document.querySelector('input[name="website"]')!;
    expect(trap.getAttribute('tabindex')).toBe('-1');
    expect(trap.closest('[aria-hidden="true"]')).not.toBeNull();
  });

  it('says kindly when the waitlist is full, and when the link is wrong', async () => {
    openJoin({ 'GET /join/bella-salon-abc12': pageAnswer(true) });
    expect(await screen.findByText('The waitlist is full')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Join the waitlist' })).not.toBeInTheDocument();
  });

  it('shows the server’s reason when it refuses (too many sign-ups)', async () => {
    const { app } = openJoin({ 'POST /join/bella-salon-abc12': errorAnswer(429, joinWords.tooMany) });
    await screen.findByRole('heading', { level: 1, name: 'Bella Salon' });
    await app.user.type(screen.getByLabelText('Your name'), 'Priya');
    await app.user.type(screen.getByLabelText('Mobile number'), '2125550141');
    await app.user.click(screen.getByLabelText(joinWords.consent('Bella Salon')));
    await app.user.click(screen.getByRole('button', { name: 'Join the waitlist' }));
    await waitFor(() => expect(screen.getByText(joinWords.tooMany)).toBeInTheDocument());
  });

  it('an unknown link says so', async () => {
    mockApi({ 'GET /join/nobody': errorAnswer(404, joinWords.notFound) });
    renderApp('/join/nobody');
    expect(await screen.findByRole('heading', { name: 'Link not found' })).toBeInTheDocument();
  });

  it('shows no check that a person is there until the server asks for one', async () => {
    openJoin();
    await screen.findByRole('heading', { level: 1, name: 'Bella Salon' });
    expect(document.querySelector('altcha-widget')).toBeNull();
  });

  it('asks for the check when the server refuses a sign-up without one, and sends the solved proof', async () => {
    let sent = 0;
    const { api, app } = openJoin({
      'POST /join/bella-salon-abc12': () => {
        sent += 1;
        return sent === 1
          ? errorAnswer(400, joinWords.proofRequired, { altcha: joinWords.proofRequired })
          : { body: { success: true, message: joinWords.checkYourTexts('Bella Salon') } };
      },
    });
    await screen.findByRole('heading', { level: 1, name: 'Bella Salon' });
    await app.user.type(screen.getByLabelText('Your name'), 'Priya');
    await app.user.type(screen.getByLabelText('Mobile number'), '2125550141');
    await app.user.click(screen.getByLabelText(joinWords.consent('Bella Salon')));
    await app.user.click(screen.getByRole('button', { name: 'Join the waitlist' }));
    await waitFor(() => expect(document.querySelector('altcha-widget')).not.toBeNull());
    expect(screen.getAllByText(joinWords.proofRequired).length).toBeGreaterThan(0);
    const widget = document.querySelector('altcha-widget')!;
    // The widget speaks the catalogue's words; its own stay for the rest.
    expect(widgetWords()).toMatchObject({
      label: joinWords.personCheck.label,
      verified: joinWords.personCheck.verified,
      error: joinWords.personCheck.error,
      reload: 'Reload',
    });
    expect(widget.getAttribute('challenge') ?? (widget as unknown as { challenge: string }).challenge).toBe(
      '/api/v1/join/bella-salon-abc12/challenge',
    );

    // Sending again before the check is done sends nothing.
    await app.user.click(screen.getByRole('button', { name: 'Join the waitlist' }));
    expect(api.callsTo('POST /join/bella-salon-abc12')).toHaveLength(1);

    act(() => {
      widget.dispatchEvent(
        new CustomEvent('statechange', { detail: { state: 'verified', payload: 'c29sdmVk' } }),
      );
    });
    await app.user.click(screen.getByRole('button', { name: 'Join the waitlist' }));
    expect(await screen.findByText(joinWords.checkYourTexts('Bella Salon'))).toBeInTheDocument();
    expect(api.callsTo('POST /join/bella-salon-abc12')[1]!.body).toMatchObject({ altcha: 'c29sdmVk' });
  });

  it('shows the check at once when the page says this connection needs one', async () => {
    openJoin({ 'GET /join/bella-salon-abc12': pageAnswer(false, true) });
    await screen.findByRole('heading', { level: 1, name: 'Bella Salon' });
    await waitFor(() => expect(document.querySelector('altcha-widget')).not.toBeNull());
  });
});

describe('the service and the person a customer waits for (issue 26)', () => {
  const withLists = (services: { id: string; name: string }[], staff: { id: string; name: string }[]) => {
    const answer = pageAnswer();
    const body = answer.body as { data: Record<string, unknown> };
    return { body: { ...body, data: { ...body.data, services, staff } } };
  };

  it('offers the business’s services and staff and sends the choice', async () => {
    const color = { id: '00000000-0000-4000-8000-0000000000c1', name: 'Color' };
    const ana = { id: '00000000-0000-4000-8000-0000000000a1', name: 'Ana' };
    const { api, app } = openJoin({
      'GET /join/bella-salon-abc12': withLists([color], [ana]),
      'POST /join/bella-salon-abc12': {
        body: { success: true, message: joinWords.checkYourTexts('Bella Salon') },
      },
    });
    const service = await screen.findByLabelText(/Service/);
    expect(service).toHaveDisplayValue('Any service');
    await app.user.type(screen.getByLabelText('Your name'), 'Priya Shah');
    await app.user.type(screen.getByLabelText('Mobile number'), '212 555 0141');
    await app.user.selectOptions(service, color.id);
    await app.user.selectOptions(screen.getByLabelText(/Who would you like to see/), ana.id);
    await app.user.click(screen.getByLabelText(joinWords.consent('Bella Salon')));
    await app.user.click(screen.getByRole('button', { name: 'Join the waitlist' }));
    await waitFor(() => expect(api.callsTo('POST /join/bella-salon-abc12')).toHaveLength(1));
    expect(api.callsTo('POST /join/bella-salon-abc12')[0]!.body).toMatchObject({
      serviceId: color.id,
      staffId: ana.id,
    });
  });

  it('shows neither choice when the lists are empty', async () => {
    openJoin({ 'GET /join/bella-salon-abc12': withLists([], []) });
    await screen.findByRole('heading', { level: 1, name: 'Bella Salon' });
    expect(screen.queryByLabelText(/Service/)).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/Who would you like to see/)).not.toBeInTheDocument();
  });
});
