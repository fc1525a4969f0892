import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider, useToast } from './toast.tsx';
import { chooseToastEdge } from './toast-edge.ts';

const PHONE_HEIGHT = 844;

describe('the edge toasts take (issue 39)', () => {
  it.each([
    {
      case: 'a phone, a button at the foot of a dialog',
      pressed: { top: 760, bottom: 804 },
      phone: true,
      edge: 'top',
    },
    {
      case: 'a phone, a button under the header',
      pressed: { top: 80, bottom: 124 },
      phone: true,
      edge: 'bottom',
    },
    {
      case: 'a phone, a button just above the middle',
      pressed: { top: 380, bottom: 420 },
      phone: true,
      edge: 'bottom',
    },
    { case: 'a phone, nothing pressed yet', pressed: null, phone: true, edge: 'bottom' },
    {
      case: 'a wider screen, a button low down',
      pressed: { top: 760, bottom: 804 },
      phone: false,
      edge: 'top',
    },
    { case: 'a wider screen, nothing pressed', pressed: null, phone: false, edge: 'top' },
  ] as const)('$case: $edge', ({ pressed, phone, edge }) => {
    expect(chooseToastEdge(pressed, PHONE_HEIGHT, phone)).toBe(edge);
  });
});

function Screen() {
  const toast = useToast();
  return (
    <>
      <button type="button" onClick={() => toast.success('Reply sent')}>
        Send reply
      </button>
      <button type="button" onClick={() => toast.success('Saved')}>
        Save at the top
      </button>
      <button
        type="button"
        onClick={() => toast.success('Marcus removed', { action: { label: 'Undo', onClick() {} } })}
      >
        Remove Marcus
      </button>
    </>
  );
}

/** Where each control stands on a 390 × 844 phone. */
const rects: Record<string, { top: number; bottom: number }> = {
  'Send reply': { top: 770, bottom: 814 },
  'Remove Marcus': { top: 770, bottom: 814 },
  'Save at the top': { top: 90, bottom: 134 },
  Undo: { top: 90, bottom: 126 },
};

function screenWidth(phone: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({ matches: phone && query.includes('max-width'), media: query })),
  );
}

/** Taps a control the way a finger does: pointerdown, then the click. */
function tap(name: string) {
  const control = screen.getByRole('button', { name });
  fireEvent.pointerDown(control);
  fireEvent.click(control);
}

const region = () => screen.getByRole('region', { name: 'Notifications' });

describe('toasts at 390 px', () => {
  const original = Element.prototype.getBoundingClientRect;
  beforeEach(() => {
    vi.stubGlobal('innerHeight', PHONE_HEIGHT);
    Element.prototype.getBoundingClientRect = function (this: Element) {
      const area = rects[this.textContent?.trim() ?? ''] ?? { top: 0, bottom: 0 };
      return {
        ...area,
        left: 0,
        right: 390,
        width: 390,
        height: area.bottom - area.top,
        x: 0,
        y: area.top,
      } as DOMRect;
    };
    render(
      <ToastProvider>
        <Screen />
      </ToastProvider>,
    );
  });
  afterEach(() => {
    Element.prototype.getBoundingClientRect = original;
    vi.unstubAllGlobals();
  });

  it('never cover the button just tapped at the foot of the screen: they drop in from the top', () => {
    screenWidth(true);
    tap('Send reply');
    expect(screen.getByTestId('toast')).toHaveTextContent('Reply sent');
    expect(region()).toHaveAttribute('data-edge', 'top');
  });

  it('rise from the bottom after a tap near the top', () => {
    screenWidth(true);
    tap('Save at the top');
    expect(region()).toHaveAttribute('data-edge', 'bottom');
  });

  it('follow a form sent with Enter: the submit button is the control pressed', () => {
    screenWidth(true);
    tap('Save at the top');
    const send = screen.getByRole('button', { name: 'Send reply' });
    fireEvent.keyDown(send, { key: 'Enter' });
    fireEvent.click(send);
    expect(region()).toHaveAttribute('data-edge', 'top');
  });

  it('stay put when the owner taps a toast’s own Undo', () => {
    screenWidth(true);
    tap('Remove Marcus');
    expect(region()).toHaveAttribute('data-edge', 'top');
    // The Undo sits near the top; were it counted, the next toast would go to the bottom.
    tap('Undo');
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    expect(region()).toHaveAttribute('data-edge', 'top');
  });

  it('keep their top-right place on a wider screen', () => {
    screenWidth(false);
    tap('Send reply');
    expect(region()).toHaveAttribute('data-edge', 'top');
  });
});
