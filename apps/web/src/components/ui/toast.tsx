import { TOAST_DEFAULT_MS, TOAST_ERROR_MS, TOAST_EXIT_MS, TOAST_STACK_OFFSET_PX } from '@waitlist/contract';
import {
  type CSSProperties,
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { chooseToastEdge, isPhoneScreen, type ToastEdge, useLastPressedArea } from './toast-edge.ts';
import './toast.css';

export { PHONE_MEDIA_QUERY } from './toast-edge.ts';

export type ToastType = 'success' | 'error' | 'warning' | 'info';

export type ToastOptions = {
  title?: string;
  /** Milliseconds before it leaves on its own; defaults by type (SPEC §9). */
  duration?: number;
  /** One button beside the message ("Undo"): it runs once and the toast leaves (issue 27). */
  action?: ToastAction;
};

export type ToastAction = {
  label: string;
  /** The button's accessible name when the label alone is not enough ("Undo removing Marcus"). */
  ariaLabel?: string;
  onClick: () => void;
};

type Toast = {
  id: number;
  type: ToastType;
  message: string;
  title?: string;
  action?: ToastAction;
  duration: number;
  leaving: boolean;
  shownAt: number;
};

/** A page change clears the toasts older than this; one shown just before the move (a "saved, here it is") stays. */
const KEEP_ON_NAVIGATION_MS = 1000;
/** Space between two stacked toasts when one is taller than the usual 80 px step. */
const STACK_GAP_PX = 12;

type ToastApi = {
  show: (type: ToastType, message: string, options?: ToastOptions) => number;
  success: (message: string, options?: ToastOptions) => number;
  error: (message: string, options?: ToastOptions) => number;
  warning: (message: string, options?: ToastOptions) => number;
  info: (message: string, options?: ToastOptions) => number;
  dismiss: (id: number) => void;
  /** After a page change: the toasts that belong to the page the owner left go. */
  dismissStale: () => void;
};

const ToastContext = createContext<ToastApi | null>(null);

const icons: Record<ToastType, string> = { success: '✓', error: '!', warning: '!', info: 'i' };

/** The toasts on screen and the API that adds and removes them, each leaving on its own timer. */
function useToastQueue(beforeShow: () => void) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const beforeShowRef = useRef(beforeShow);
  beforeShowRef.current = beforeShow;
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const toastsRef = useRef(toasts);
  toastsRef.current = toasts;

  const schedule = useCallback((id: number, ms: number, run: () => void) => {
    const previous = timers.current.get(id);
    if (previous) clearTimeout(previous);
    timers.current.set(
      id,
      setTimeout(() => {
        timers.current.delete(id);
        run();
      }, ms),
    );
  }, []);

  const dismiss = useCallback(
    (id: number) => {
      setToasts((current) => current.map((toast) => (toast.id === id ? { ...toast, leaving: true } : toast)));
      // The exit animation runs before the toast leaves the page.
      schedule(id, TOAST_EXIT_MS, () => setToasts((current) => current.filter((toast) => toast.id !== id)));
    },
    [schedule],
  );

  const show = useCallback(
    (type: ToastType, message: string, options: ToastOptions = {}) => {
      const id = nextId.current++;
      beforeShowRef.current();
      const duration = options.duration ?? (type === 'error' ? TOAST_ERROR_MS : TOAST_DEFAULT_MS);
      // A success answers the error before it (a wrong code, then the right one): the error goes.
      const answered = type === 'success' ? toastsRef.current.filter((toast) => toast.type === 'error') : [];
      for (const toast of answered) if (!toast.leaving) dismiss(toast.id);
      setToasts((current) => [
        ...current,
        {
          id,
          type,
          message,
          title: options.title,
          action: options.action,
          duration,
          leaving: false,
          shownAt: Date.now(),
        },
      ]);
      schedule(id, duration, () => dismiss(id));
      return id;
    },
    [dismiss, schedule],
  );

  const dismissStale = useCallback(() => {
    const now = Date.now();
    for (const toast of toastsRef.current) {
      if (!toast.leaving && now - toast.shownAt >= KEEP_ON_NAVIGATION_MS) dismiss(toast.id);
    }
  }, [dismiss]);

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  const api = useMemo<ToastApi>(
    () => ({
      show,
      dismiss,
      dismissStale,
      success: (message, options) => show('success', message, options),
      error: (message, options) => show('error', message, options),
      warning: (message, options) => show('warning', message, options),
      info: (message, options) => show('info', message, options),
    }),
    [show, dismiss, dismissStale],
  );

  return { toasts, api };
}

/**
 * Where each toast stands in the stack (SPEC §9: 80 px apart; a taller toast takes its own height plus a
 * gap), from each one's height as drawn: a long one (two sentences on a phone) pushes the next down
 * instead of being cut off under it. Measured again whenever a toast changes size (fonts arriving, a
 * rotated phone).
 */
function useStackOffsets(toasts: Toast[]) {
  const [heights, setHeights] = useState<Record<number, number>>({});
  const elements = useRef(new Map<number, HTMLDivElement>());
  const toastsRef = useRef(toasts);
  toastsRef.current = toasts;

  const measure = useCallback(() => {
    setHeights((current) => {
      let changed = false;
      const next: Record<number, number> = {};
      for (const toast of toastsRef.current) {
        const height = elements.current.get(toast.id)?.offsetHeight ?? 0;
        next[toast.id] = height;
        if (current[toast.id] !== height) changed = true;
      }
      return changed || Object.keys(current).length !== toastsRef.current.length ? next : current;
    });
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new or gone toast is observed afresh
  useLayoutEffect(() => {
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    for (const element of elements.current.values()) observer.observe(element);
    return () => observer.disconnect();
  }, [toasts, measure]);

  let offset = 0;
  const offsets = toasts.map((toast) => {
    const top = offset;
    const needed = (heights[toast.id] ?? 0) + STACK_GAP_PX;
    // A pixel or two over (rounding) keeps the regular step; a really taller toast gets its own height.
    offset += needed > TOAST_STACK_OFFSET_PX + 2 ? needed : TOAST_STACK_OFFSET_PX;
    return top;
  });

  const track = (id: number) => (element: HTMLDivElement | null) => {
    if (element) elements.current.set(id, element);
    else elements.current.delete(id);
  };

  return { offsets, track };
}

function ToastStack({
  toasts,
  edge,
  onDismiss,
}: {
  toasts: Toast[];
  edge: ToastEdge;
  onDismiss: (id: number) => void;
}) {
  const { offsets, track } = useStackOffsets(toasts);
  return (
    <section className="toast-region" aria-label="Notifications" data-edge={edge}>
      {toasts.map((toast, index) => (
        <div
          key={toast.id}
          ref={track(toast.id)}
          className={`toast toast--${toast.type}${toast.leaving ? ' toast--leaving' : ''}`}
          style={
            {
              top: `${offsets[index]}px`,
              '--toast-offset': `${offsets[index]}px`,
              animationDuration: `${TOAST_EXIT_MS}ms`,
            } as CSSProperties
          }
          role="status"
          aria-live={toast.type === 'error' ? 'assertive' : 'polite'}
          aria-atomic="true"
          data-testid="toast"
        >
          <span className="toast__icon" aria-hidden="true">
            {icons[toast.type]}
          </span>
          <p className="toast__body" title={toast.message}>
            {toast.title ? <strong className="toast__title">{toast.title}</strong> : null}
            <span className="toast__message">{toast.message}</span>
          </p>
          {toast.action ? (
            <button
              type="button"
              className="toast__action"
              aria-label={toast.action.ariaLabel}
              disabled={toast.leaving}
              onClick={() => {
                toast.action?.onClick();
                onDismiss(toast.id);
              }}
            >
              {toast.action.label}
            </button>
          ) : null}
          <button
            type="button"
            className="close-button close-button--small"
            aria-label="Close notification"
            onClick={() => onDismiss(toast.id)}
          >
            ×
          </button>
        </div>
      ))}
    </section>
  );
}

/** Toasts are not counted as the control the owner pressed: an Undo does not move the stack. */
const TOAST_REGION_SELECTOR = '.toast-region';

export function ToastProvider({ children }: { children: ReactNode }) {
  const pressed = useLastPressedArea(TOAST_REGION_SELECTOR);
  const [edge, setEdge] = useState<ToastEdge>(() =>
    chooseToastEdge(null, window.innerHeight, isPhoneScreen()),
  );
  // Each new toast takes the edge away from the control just pressed (issue 39); the stack moves as one.
  const { toasts, api } = useToastQueue(() =>
    setEdge(chooseToastEdge(pressed.current, window.innerHeight, isPhoneScreen())),
  );
  return (
    <ToastContext.Provider value={api}>
      {children}
      <ToastStack toasts={toasts} edge={edge} onDismiss={api.dismiss} />
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast must be used inside <ToastProvider>');
  return api;
}
