import { screen, waitFor, within } from '@testing-library/react';
import { offerMessages, waitlistMessages } from '@waitlist/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../../test/fixtures.ts';
import { type MockAnswer, mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import {
  makeOpening,
  makePlannedOffer,
  makeService,
  makeStaff,
  openingDetail,
  openingsAnswer,
  previewAnswer,
  servicesAnswers,
} from '../../../test/waitlist-fixtures.ts';

const haircut = makeService({ name: 'Haircut', durationMinutes: 45, priceCents: 4500 });
const color = makeService({ name: 'Color', durationMinutes: 100, priceCents: 12000 });
const ana = makeStaff({ name: 'Ana' });
const created = makeOpening({ service: 'Color' });

async function openForm(handlers: Record<string, MockAnswer> = {}) {
  const api = mockSignedIn(makeUser(), {
    'GET /openings': openingsAnswer(),
    ...servicesAnswers([haircut, color], [ana]),
    'POST /openings': {
      status: 201,
      body: { success: true, data: openingDetail(created), message: waitlistMessages.openingCreated },
    },
    [`GET /openings/${created.id}`]: { body: { success: true, data: openingDetail(created) } },
    ...handlers,
  });
  const app = renderApp('/openings', { token: 'tok' });
  const form = await screen.findByRole('form', { name: 'Open a slot' });
  return { api, app, form };
}

const plan = (now = new Date()) => [
  makePlannedOffer({ name: 'Priya Shah', rank: 1, reason: '1st: pinned first', sendAt: now.toISOString() }),
  makePlannedOffer({
    name: 'Jenny Park',
    rank: 2,
    reason: '2nd: claimed 3 of 4 offers, replies in ~4 min',
    sendAt: now.toISOString(),
  }),
  makePlannedOffer({ name: 'Sam Lee', rank: 3, wave: 2, reason: '3rd: new here', sendAt: null }),
  makePlannedOffer({ name: 'Kim Ito', rank: 4, reason: '4th: offered twice today', skipReason: 'daily_cap' }),
];

afterEach(() => vi.useRealTimers());

describe('open a slot for a service, then confirm the plan (issue 26)', () => {
  it('pre-fills length and price from the service and shows who gets the text and why', async () => {
    const { api, app, form } = await openForm({
      'POST /openings/preview': previewAnswer({
        offers: plan(),
        fitting: 4,
        firstWave: 2,
        waves: 2,
        waveSize: 2,
        claimWindowMinutes: 10,
        expectedTexts: 3.6,
      }),
    });
    // The list arrives after the form: the typed-in field gives way to the select, nothing chosen (issue 39).
    const service = await within(form).findByRole('combobox', { name: 'Service' });
    expect(service).toHaveValue('');
    await app.user.selectOptions(service, haircut.id);
    expect(within(form).getByLabelText('Duration')).toHaveDisplayValue('45 min');
    await app.user.selectOptions(within(form).getByLabelText('Service'), color.id);
    expect(within(form).getByLabelText('Duration')).toHaveDisplayValue('1 h 40 min');
    expect(within(form).getByLabelText(/Price/)).toHaveValue('120.00');
    await app.user.selectOptions(within(form).getByLabelText('With'), ana.id);
    expect(within(form).getByRole('radio', { name: /Automatic \(recommended\)/ })).toBeChecked();
    await app.user.type(within(form).getByLabelText('Time'), '15:30');
    await app.user.click(within(form).getByRole('button', { name: 'See who gets the text' }));

    const headline = await screen.findByTestId('preview-headline');
    expect(headline).toHaveTextContent('Text 2 customers now: Priya, Jenny');
    expect(screen.getByRole('heading', { name: 'Check before sending' })).toHaveFocus();
    expect(screen.getByTestId('preview-figures')).toHaveTextContent(
      '4 customers fit this slot · the automatic plan expects about 4 texts · Automatic: waves of 2, 10 minutes to claim',
    );
    const order = within(screen.getByRole('list', { name: 'Who gets the text, in order' }));
    expect(order.getAllByRole('listitem').map((item) => item.getAttribute('aria-label'))).toEqual([
      'Priya Shah',
      'Jenny Park',
      'Sam Lee',
      'Kim Ito',
    ]);
    expect(order.getByRole('listitem', { name: 'Jenny Park' })).toHaveTextContent(
      '2nd: claimed 3 of 4 offers, replies in ~4 minTexted now',
    );
    expect(order.getByRole('listitem', { name: 'Sam Lee' })).toHaveTextContent(
      'Wave 2, if nobody has claimed',
    );
    expect(order.getByRole('listitem', { name: 'Kim Ito' })).toHaveTextContent(
      'Not texted: offered enough today',
    );
    expect(api.callsTo('POST /openings')).toHaveLength(0);
    expect(api.callsTo('POST /openings/preview')[0]?.body).toEqual({
      startsAt: expect.stringMatching(/T15:30$/),
      durationMinutes: 100,
      service: 'Color',
      serviceId: color.id,
      staffId: ana.id,
      priceCents: 12000,
      mode: 'auto',
    });

    await app.user.click(screen.getByRole('button', { name: 'Send cancellation alert' }));
    await waitFor(() => expect(api.callsTo('POST /openings')).toHaveLength(1));
    expect(api.callsTo('POST /openings')[0]?.body).toEqual(api.callsTo('POST /openings/preview')[0]?.body);
    expect(await screen.findByText(waitlistMessages.openingCreated)).toBeInTheDocument();
  });

  it('goes back to the form with everything kept, and sends nothing', async () => {
    const { api, app, form } = await openForm({
      'POST /openings/preview': previewAnswer({ offers: plan() }),
    });
    await app.user.selectOptions(await within(form).findByRole('combobox', { name: 'Service' }), haircut.id);
    await app.user.type(within(form).getByLabelText('Time'), '09:15');
    await app.user.click(within(form).getByRole('radio', { name: /Everyone at once/ }));
    await app.user.click(within(form).getByRole('button', { name: 'See who gets the text' }));
    await app.user.click(await screen.findByRole('button', { name: 'Back to edit' }));
    expect(screen.queryByTestId('preview-headline')).not.toBeInTheDocument();
    expect(within(form).getByLabelText('Time')).toHaveValue('09:15');
    expect(within(form).getByRole('radio', { name: /Everyone at once/ })).toBeChecked();
    await waitFor(() =>
      expect(within(form).getByRole('button', { name: 'See who gets the text' })).toHaveFocus(),
    );
    expect(api.callsTo('POST /openings')).toHaveLength(0);
  });

  it('says when quiet hours hold the first text back', async () => {
    // 10:00 pm in New York: the first text goes out at 8:00 am tomorrow.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-03T03:00:00.000Z'));
    const morning = '2030-01-03T13:00:00.000Z';
    const offers = plan().map((offer) => (offer.sendAt ? { ...offer, sendAt: morning } : offer));
    const { app, form } = await openForm({
      'POST /openings/preview': previewAnswer({ offers, firstWave: 2, firstTextAt: morning }),
    });
    await app.user.selectOptions(await within(form).findByRole('combobox', { name: 'Service' }), haircut.id);
    await app.user.type(within(form).getByLabelText('Time'), '10:00');
    await app.user.click(within(form).getByRole('button', { name: 'See who gets the text' }));
    expect(await screen.findByTestId('preview-headline')).toHaveTextContent(
      'Text 2 customers: Priya, Jenny — first text at 8:00 am tomorrow because of quiet hours',
    );
    const order = within(screen.getByRole('list', { name: 'Who gets the text, in order' }));
    expect(order.getByRole('listitem', { name: 'Priya Shah' })).toHaveTextContent(
      'Texted at 8:00 am tomorrow',
    );
  });

  it('says so when nobody can be texted', async () => {
    const { app, form } = await openForm({
      'POST /openings/preview': previewAnswer({
        offers: [],
        fitting: 0,
        firstTextAt: null,
        expectedTexts: 0,
      }),
    });
    await app.user.selectOptions(await within(form).findByRole('combobox', { name: 'Service' }), haircut.id);
    await app.user.type(within(form).getByLabelText('Time'), '10:00');
    await app.user.click(within(form).getByRole('button', { name: 'See who gets the text' }));
    expect(await screen.findByTestId('preview-headline')).toHaveTextContent(
      'Nobody on your waitlist can be texted for this slot.',
    );
    expect(screen.getByTestId('preview-figures')).toHaveTextContent('0 customers fit this slot');
  });
});

describe('a business without services keeps the simple form', () => {
  it('types the service, links to adding services, and sends waves by hand', async () => {
    const { api, app, form } = await openForm({
      ...servicesAnswers(),
      'POST /openings/preview': previewAnswer({
        mode: 'waves',
        waveSize: 2,
        claimWindowMinutes: 15,
        waves: 2,
      }),
    });
    expect(within(form).queryByLabelText('With')).not.toBeInTheDocument();
    expect(within(form).getByRole('link', { name: 'Add services' })).toHaveAttribute('href', '/services');
    await app.user.click(within(form).getByRole('button', { name: 'See who gets the text' }));
    expect(await within(form).findByText(offerMessages.serviceOrNameRequired)).toBeInTheDocument();
    await app.user.type(within(form).getByLabelText('Service'), 'Beard trim');
    await app.user.type(within(form).getByLabelText('Time'), '10:00');
    await app.user.click(within(form).getByRole('radio', { name: /Waves of 3 every 10 minutes/ }));
    await app.user.clear(within(form).getByLabelText('Customers per wave'));
    await app.user.type(within(form).getByLabelText('Customers per wave'), '2');
    expect(within(form).getByRole('radio', { name: /Waves of 2 every 10 minutes/ })).toBeChecked();
    await app.user.click(within(form).getByRole('button', { name: 'See who gets the text' }));
    expect(await screen.findByTestId('preview-figures')).toHaveTextContent(
      'this plan expects about 1 text · Waves',
    );
    expect(api.callsTo('POST /openings/preview')[0]?.body).toMatchObject({
      service: 'Beard trim',
      mode: 'waves',
      waveSize: 2,
      claimWindowMinutes: 10,
    });
    expect(api.callsTo('POST /openings/preview')[0]?.body).not.toHaveProperty('serviceId');
  });
});

describe('the service of a new slot is the owner’s choice (issue 39)', () => {
  it('chooses no service for the owner, asks for one, and offers a typed name as "Something else"', async () => {
    const { api, app, form } = await openForm({
      'POST /openings/preview': previewAnswer({ offers: plan() }),
    });
    const service = await within(form).findByRole('combobox', { name: 'Service' });
    expect(service).toHaveValue('');
    expect(within(form).getByRole('option', { name: 'Choose a service' })).toBeDisabled();
    expect(within(form).queryByRole('textbox', { name: 'Service name' })).not.toBeInTheDocument();
    await app.user.type(within(form).getByLabelText('Time'), '15:30');
    await app.user.click(within(form).getByRole('button', { name: 'See who gets the text' }));
    expect(await within(form).findByText('Choose the service that was cancelled')).toBeInTheDocument();
    expect(api.callsTo('POST /openings/preview')).toHaveLength(0);

    await app.user.selectOptions(service, 'other');
    await app.user.type(within(form).getByRole('textbox', { name: 'Service name' }), 'Bang trim');
    await app.user.click(within(form).getByRole('button', { name: 'See who gets the text' }));
    await waitFor(() => expect(api.callsTo('POST /openings/preview')).toHaveLength(1));
    const body = api.callsTo('POST /openings/preview')[0]?.body as Record<string, unknown>;
    expect(body.service).toBe('Bang trim');
    expect(body).not.toHaveProperty('serviceId');
  });
});
