import { screen } from '@testing-library/react';
import { customerWords } from '@waitlist/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type MockAnswer, mockApi } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { browserLocale } from '../components/join-language.tsx';

/** Issue 28: the join page and its poster open in the browser's language, with an English | Español switch. */
const [en, es] = [customerWords('en').join, customerWords('es').join];

const pageAnswer: MockAnswer = {
  body: {
    success: true,
    data: {
      businessName: 'Bella Salon',
      consentText: en.consent('Bella Salon'),
      textNumber: '+15555551234',
      full: false,
      proofRequired: false,
      services: [],
      staff: [],
    },
  },
};

const browserLanguages = (languages: string[]) =>
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages as readonly string[]);
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the join page’s language', () => {
  it('reads the browser’s first English or Spanish preference', () => {
    expect(browserLocale(['es-MX', 'en-US'])).toBe('es');
    expect(browserLocale(['fr-FR', 'es'])).toBe('es');
    expect(browserLocale(['en-GB', 'es-ES'])).toBe('en');
    expect(browserLocale(['de-DE'])).toBe('en');
    expect(browserLocale([])).toBe('en');
  });

  it('opens in Spanish for a Spanish browser and sends the join in Spanish', async () => {
    browserLanguages(['es-US', 'en']);
    const api = mockApi({
      'GET /join/bella-salon-abc12': pageAnswer,
      'POST /join/bella-salon-abc12': { body: { success: true, message: es.checkYourTexts('Bella Salon') } },
    });
    const app = renderApp('/join/bella-salon-abc12');
    await screen.findByRole('heading', { level: 1, name: 'Bella Salon' });
    expect(screen.getByRole('button', { name: 'Español' })).toHaveAttribute('aria-pressed', 'true');
    // Missing fields are named in Spanish, before anything is sent.
    await app.user.click(screen.getByRole('button', { name: es.page.submit }));
    expect(await screen.findByText(es.nameRequired)).toBeInTheDocument();
    expect(screen.getByText(es.consentRequired)).toBeInTheDocument();
    await app.user.type(screen.getByLabelText(es.page.nameLabel), 'Lucía Pérez');
    await app.user.type(screen.getByLabelText(es.page.phoneLabel), '212 555 0141');
    await app.user.click(screen.getByLabelText(es.consent('Bella Salon')));
    await app.user.click(screen.getByRole('button', { name: es.page.submit }));
    expect(await screen.findByText(es.checkYourTexts('Bella Salon'))).toBeInTheDocument();
    expect(api.callsTo('POST /join/bella-salon-abc12')[0]!.body).toMatchObject({
      name: 'Lucía Pérez',
      language: 'es',
    });
  });

  it('opens in English for an English browser; the switch turns every word Spanish', async () => {
    browserLanguages(['en-US']);
    const api = mockApi({
      'GET /join/bella-salon-abc12': pageAnswer,
      'POST /join/bella-salon-abc12': { body: { success: true, message: es.checkYourTexts('Bella Salon') } },
    });
    const app = renderApp('/join/bella-salon-abc12');
    await screen.findByRole('heading', { level: 1, name: 'Bella Salon' });
    expect(screen.getByText(en.page.lead)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');
    await app.user.click(screen.getByRole('button', { name: 'Español' }));
    expect(screen.getByText(es.page.lead)).toBeInTheDocument();
    expect(screen.queryByText(en.page.lead)).not.toBeInTheDocument();
    expect(screen.getByLabelText(es.consent('Bella Salon'))).toBeInTheDocument();
    await app.user.type(screen.getByLabelText(es.page.nameLabel), 'Lucía');
    await app.user.type(screen.getByLabelText(es.page.phoneLabel), '212 555 0141');
    await app.user.click(screen.getByLabelText(es.consent('Bella Salon')));
    await app.user.click(screen.getByRole('button', { name: es.page.submit }));
    await screen.findByText(es.checkYourTexts('Bella Salon'));
    expect(api.callsTo('POST /join/bella-salon-abc12')[0]!.body).toMatchObject({ language: 'es' });
  });

  it('the poster prints in the page’s language, and switches', async () => {
    browserLanguages(['es']);
    mockApi({ 'GET /join/bella-salon-abc12': pageAnswer });
    const app = renderApp('/join/bella-salon-abc12/poster');
    await screen.findByRole('heading', { level: 1, name: 'Bella Salon' });
    expect(screen.getByText(es.poster.headline)).toBeInTheDocument();
    expect(screen.getByText(es.poster.smallPrint)).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'English' }));
    expect(screen.getByText(en.poster.headline)).toBeInTheDocument();
  });
});
