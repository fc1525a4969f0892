import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makePlannedOffer, previewAnswer } from '../../../test/waitlist-fixtures.ts';
import { OpeningPreviewStep } from './opening-preview.tsx';

afterEach(() => vi.useRealTimers());

const NOW = new Date('2030-01-02T15:00:00.000Z'); // 10:00 am in New York, 5:00 am in Honolulu
const show = (data: ReturnType<typeof previewAnswer>['body']['data']) =>
  render(
    <OpeningPreviewStep
      preview={data}
      timeZone="America/New_York"
      sending={false}
      error={null}
      onBack={() => {}}
      onConfirm={() => {}}
    />,
  );

describe('the preview names who is held and who is left out (issue 39)', () => {
  it('does not say "now" of a customer quiet hours hold, and says until when in their time', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    const { data } = previewAnswer({
      offers: [
        makePlannedOffer({
          name: 'Kai Akana',
          rank: 1,
          sendAt: '2030-01-02T18:00:00.000Z',
          timeZone: 'Pacific/Honolulu',
        }),
        makePlannedOffer({
          name: 'Leo Park',
          rank: 2,
          sendAt: NOW.toISOString(),
          timeZone: 'America/New_York',
        }),
        makePlannedOffer({ name: 'Quinn Busy', rank: 3, sendAt: null, skipReason: 'daily_cap' }),
      ],
      firstWave: 3,
      firstTextAt: NOW.toISOString(),
      leftOut: [
        { customerId: 'c-1', name: 'Ned Saturdays', reason: 'time_preference' },
        { customerId: 'c-2', name: 'Olga Jo', reason: 'staff' },
        { customerId: 'c-3', name: 'Pat Colour', reason: 'service' },
      ],
      slot: { service: 'Women’s cut', staffName: 'Jess', priceCents: 6500 },
    }).body;
    show(data);

    expect(screen.getByTestId('preview-slot')).toHaveTextContent('Women’s cut with Jess · $65');
    expect(screen.getByTestId('preview-headline')).toHaveTextContent(
      'Text 1 customer now: Leo · 1 held for quiet hours: Kai',
    );
    const order = within(screen.getByRole('list', { name: 'Who gets the text, in order' }));
    expect(order.getByRole('listitem', { name: 'Kai Akana' })).toHaveTextContent(
      'Texted at 8:00 am Honolulu time (quiet hours there)',
    );
    expect(order.getByRole('listitem', { name: 'Leo Park' })).toHaveTextContent('Texted now');
    expect(order.getByRole('listitem', { name: 'Quinn Busy' })).toHaveTextContent(
      'Not texted: offered enough today',
    );
    const leftOut = within(screen.getByRole('list', { name: 'Left out' }));
    expect(leftOut.getByRole('listitem', { name: 'Ned Saturdays' })).toHaveTextContent(
      'Outside the times they asked for',
    );
    expect(leftOut.getByRole('listitem', { name: 'Olga Jo' })).toHaveTextContent('Asked for another stylist');
    expect(leftOut.getByRole('listitem', { name: 'Pat Colour' })).toHaveTextContent(
      'Their service needs longer than this slot',
    );
  });
});
