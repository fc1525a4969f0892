import { act, fireEvent, render, screen } from '@testing-library/react';
import { TOAST_DEFAULT_MS, TOAST_ERROR_MS, TOAST_EXIT_MS } from '@waitlist/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const undo = vi.fn();

import { ToastProvider, useToast } from './toast.tsx';

function Demo() {
  const toast = useToast();
  return (
    <>
      <button type="button" onClick={() => toast.success('Saved!')}>
        success
      </button>
      <button type="button" onClick={() => toast.error('Broke!', { title: 'Reset Failed' })}>
        error
      </button>
      <button type="button" onClick={() => toast.warning('Careful')}>
        warning
      </button>
      <button type="button" onClick={() => toast.info('FYI')}>
        info
      </button>
      <button
        type="button"
        onClick={() =>
          toast.success('Marcus removed', {
            duration: 10_000,
            action: { label: 'Undo', ariaLabel: 'Undo removing Marcus', onClick: undo },
          })
        }
      >
        undoable
      </button>
      <button type="button" onClick={() => toast.dismissStale()}>
        next page
      </button>
    </>
  );
}

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

describe('toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    render(
      <ToastProvider>
        <Demo />
      </ToastProvider>,
    );
  });
  afterEach(() => vi.useRealTimers());

  it('show success for 5000 ms, then leave after a 300 ms exit animation', () => {
    fireEvent.click(screen.getByRole('button', { name: 'success' }));
    const toast = screen.getByRole('status', { name: '' });
    expect(toast).toHaveTextContent('Saved!');
    expect(toast).toHaveClass('toast--success');
    expect(toast).toHaveAttribute('aria-live', 'polite');

    advance(TOAST_DEFAULT_MS - 1);
    expect(toast).not.toHaveClass('toast--leaving');
    advance(1);
    expect(toast).toHaveClass('toast--leaving');
    advance(TOAST_EXIT_MS - 1);
    expect(screen.getByText('Saved!')).toBeInTheDocument();
    advance(1);
    expect(screen.queryByText('Saved!')).not.toBeInTheDocument();
  });

  it('keep errors for 7000 ms and show their title', () => {
    fireEvent.click(screen.getByRole('button', { name: 'error' }));
    expect(screen.getByText('Reset Failed')).toBeInTheDocument();
    advance(TOAST_DEFAULT_MS);
    expect(screen.getByText('Broke!').closest('.toast')).not.toHaveClass('toast--leaving');
    advance(TOAST_ERROR_MS - TOAST_DEFAULT_MS);
    expect(screen.getByText('Broke!').closest('.toast')).toHaveClass('toast--leaving');
    advance(TOAST_EXIT_MS);
    expect(screen.queryByText('Broke!')).not.toBeInTheDocument();
  });

  it('offer one action: a named button that runs once and takes the toast away', () => {
    undo.mockClear();
    fireEvent.click(screen.getByRole('button', { name: 'undoable' }));
    const toast = screen.getByText('Marcus removed').closest('[data-testid="toast"]') as HTMLElement;
    const action = screen.getByRole('button', { name: 'Undo removing Marcus' });
    expect(action).toHaveTextContent('Undo');
    expect(toast).toContainElement(action);
    // It stays its own duration (10 s), past the 5 s of a plain success.
    advance(TOAST_DEFAULT_MS + 1);
    expect(toast).not.toHaveClass('toast--leaving');
    fireEvent.click(action);
    expect(undo).toHaveBeenCalledTimes(1);
    expect(toast).toHaveClass('toast--leaving');
    expect(action).toBeDisabled();
    fireEvent.click(action);
    expect(undo).toHaveBeenCalledTimes(1);
    advance(TOAST_EXIT_MS);
    expect(screen.queryByText('Marcus removed')).not.toBeInTheDocument();
  });

  it('close on the close button, with the exit animation', () => {
    fireEvent.click(screen.getByRole('button', { name: 'warning' }));
    fireEvent.click(screen.getByRole('button', { name: 'Close notification' }));
    expect(screen.getByText('Careful').closest('.toast')).toHaveClass('toast--leaving');
    advance(TOAST_EXIT_MS);
    expect(screen.queryByText('Careful')).not.toBeInTheDocument();
  });

  it('stack 80 px apart, one per type', () => {
    for (const name of ['success', 'error', 'warning', 'info']) {
      fireEvent.click(screen.getByRole('button', { name }));
    }
    const toasts = screen.getAllByTestId('toast');
    expect(toasts.map((toast) => toast.style.top)).toEqual(['0px', '80px', '160px', '240px']);
    expect(toasts.map((toast) => toast.className)).toEqual([
      'toast toast--success',
      'toast toast--error',
      'toast toast--warning',
      'toast toast--info',
    ]);
  });

  it('a success clears the error it answers (a wrong code, then the right one)', () => {
    fireEvent.click(screen.getByRole('button', { name: 'error' }));
    fireEvent.click(screen.getByRole('button', { name: 'warning' }));
    advance(1000);
    fireEvent.click(screen.getByRole('button', { name: 'success' }));
    expect(screen.getByText('Broke!').closest('.toast')).toHaveClass('toast--leaving');
    expect(screen.getByText('Careful').closest('.toast')).not.toHaveClass('toast--leaving');
    advance(TOAST_EXIT_MS);
    expect(screen.queryByText('Broke!')).not.toBeInTheDocument();
    expect(screen.getByText('Saved!')).toBeInTheDocument();
  });

  it('do not follow the owner to the next page, except one shown as they left', () => {
    fireEvent.click(screen.getByRole('button', { name: 'warning' }));
    advance(1500);
    fireEvent.click(screen.getByRole('button', { name: 'info' }));
    fireEvent.click(screen.getByRole('button', { name: 'next page' }));
    expect(screen.getByText('Careful').closest('.toast')).toHaveClass('toast--leaving');
    expect(screen.getByText('FYI').closest('.toast')).not.toHaveClass('toast--leaving');
    advance(TOAST_EXIT_MS);
    expect(screen.queryByText('Careful')).not.toBeInTheDocument();
    expect(screen.getByText('FYI')).toBeInTheDocument();
  });

  it('stack a 120 px toast 132 px above the next', () => {
    const original = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight');
    Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
      configurable: true,
      get(this: HTMLElement) {
        return this.textContent?.includes('Careful') ? 120 : 68;
      },
    });
    try {
      for (const name of ['warning', 'info', 'success'])
        fireEvent.click(screen.getByRole('button', { name }));
      const toasts = screen.getAllByTestId('toast');
      expect(toasts.map((toast) => toast.style.top)).toEqual(['0px', '132px', '212px']);
      expect(screen.getByText('Careful').closest('p')).not.toHaveStyle({ webkitLineClamp: '2' });
    } finally {
      if (original) Object.defineProperty(HTMLElement.prototype, 'offsetHeight', original);
    }
  });
});
