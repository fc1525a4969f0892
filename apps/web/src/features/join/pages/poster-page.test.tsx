import { screen } from '@testing-library/react';
import { customerWords } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { type MockAnswer, mockApi } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

const joinWords = customerWords().join;

const pageAnswer = (textNumber: string | null): MockAnswer => ({
  body: {
    success: true,
    data: {
      businessName: 'Bella Salon',
      consentText: joinWords.consent('Bella Salon'),
      textNumber,
      full: false,
      proofRequired: false,
      services: [],
      staff: [],
    },
  },
});

describe('the printable poster (issue 27)', () => {
  it('prints the business number beside "Or text JOIN to our number"', async () => {
    mockApi({ 'GET /join/bella-salon-abc12': pageAnswer('+15555551234') });
    renderApp('/join/bella-salon-abc12/poster');
    expect(await screen.findByRole('heading', { level: 1, name: 'Bella Salon' })).toBeInTheDocument();
    expect(screen.getByText('Or text JOIN to our number: (555) 555-1234.')).toBeInTheDocument();
    expect(screen.getByText(joinWords.poster.smallPrint)).toBeInTheDocument();
  });

  it('leaves the JOIN line out while the business has no text number', async () => {
    mockApi({ 'GET /join/bella-salon-abc12': pageAnswer(null) });
    renderApp('/join/bella-salon-abc12/poster');
    expect(await screen.findByRole('heading', { level: 1, name: 'Bella Salon' })).toBeInTheDocument();
    expect(screen.queryByText(/text JOIN/)).not.toBeInTheDocument();
    expect(screen.getByText('Msg & data rates may apply. Reply STOP to opt out.')).toBeInTheDocument();
  });
});
