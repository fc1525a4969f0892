import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SegmentMeter } from './segment-meter.tsx';

const meter = () => screen.getByTestId('segment-meter');
const warnings = () => screen.queryByRole('list', { name: 'Carrier warnings' });

describe('segment meter', () => {
  it('counts plain text as GSM-7 against 160 characters', () => {
    render(<SegmentMeter text="Hi Maria, see you at 3!" />);
    expect(meter()).toHaveTextContent('23 / 160');
    expect(meter()).toHaveTextContent('1 segment');
    expect(meter()).toHaveTextContent('GSM-7');
    expect(warnings()).not.toBeInTheDocument();
  });

  it('switches to UCS-2 (70 per text) as soon as there is an emoji, and says why', () => {
    render(<SegmentMeter text="See you soon 😊" />);
    expect(meter()).toHaveTextContent('15 / 70');
    expect(meter()).toHaveTextContent('UCS-2');
    expect(screen.getByText(/switches the whole text to UCS-2/)).toBeInTheDocument();
  });

  it('counts GSM-7 extension characters as two', () => {
    render(<SegmentMeter text="Price: €20" />);
    expect(meter()).toHaveTextContent('11 / 160');
    expect(meter()).toHaveTextContent('GSM-7');
  });

  it('warns about more than one segment', () => {
    render(<SegmentMeter text={'a'.repeat(161)} />);
    expect(meter()).toHaveTextContent('161 / 306');
    expect(meter()).toHaveTextContent('2 segments');
    expect(
      within(warnings() as HTMLElement).getByText(/This text is 2 segments \(GSM-7\)/),
    ).toBeInTheDocument();
  });

  it('an emoji makes 71 characters two segments', () => {
    render(<SegmentMeter text={`${'a'.repeat(69)}😊`} />);
    expect(meter()).toHaveTextContent('2 segments');
    expect(meter()).toHaveTextContent('UCS-2');
  });

  it('warns about links and, more strongly, URL shorteners', () => {
    const { rerender } = render(<SegmentMeter text="Book at https://bella.example.com/book" />);
    expect(
      within(warnings() as HTMLElement).getByText(/Texts with links are more likely to be filtered/),
    ).toBeInTheDocument();
    rerender(<SegmentMeter text="Book at bit.ly/abc" />);
    expect(within(warnings() as HTMLElement).getByText(/URL shorteners/)).toBeInTheDocument();
    expect(screen.queryByText(/Texts with links/)).not.toBeInTheDocument();
  });
});
