import { TOAST_DEFAULT_MS, TOAST_ERROR_MS, TOAST_EXIT_MS, TOAST_STACK_OFFSET_PX } from '@waitlist/contract';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import './toast.css';

export type ToastType = 'success' | 'error' | 'warning' | 'info';

export type ToastOptions = {
  title?: string;
  /** Milliseconds before it leaves on its own; defaults by type (SPEC §9). */
  duration?: number;
};

type Toast = {
  id: number;
  type: ToastType;
  message: string;
  title?: string;
  duration: number;
  leaving: boolean;
};

type ToastApi = {
  show: (type: ToastType, message: string, options?: ToastOptions) => number;
  success: (message: string, options?: ToastOptions) => number;
  error: (message: string, options?: ToastOptions) => number;
  warning: (message: string, options?: ToastOptions) => number;
  info: (message: string, options?: ToastOptions) => number;
  dismiss: (id: number) => void;
};

const ToastContext = createContext<ToastApi | null>(null);

const icons: Record<ToastType, string> = { success: '✓', error: '!', warning: '!', info: 'i' };

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

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
      const duration = options.duration ?? (type === 'error' ? TOAST_ERROR_MS : TOAST_DEFAULT_MS);
      setToasts((current) => [
        ...current,
        { id, type, message, title: options.title, duration, leaving: false },
      ]);
      schedule(id, duration, () => dismiss(id));
      return id;
    },
    [dismiss, schedule],
  );

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
      success: (message, options) => show('success', message, options),
      error: (message, options) => show('error', message, options),
      warning: (message, options) => show('warning', message, options),
      info: (message, options) => show('info', message, options),
    }),
    [show, dismiss],
  );

  return (
    <ToastContext.Provider value={api}>
      {children}
      <section className="toast-region" aria-label="Notifications">
        {toasts.map((toast, index) => (
          <div
            key={toast.id}
            className={`toast toast--${toast.type}${toast.leaving ? ' toast--leaving' : ''}`}
            style={{ top: `${index * TOAST_STACK_OFFSET_PX}px`, animationDuration: `${TOAST_EXIT_MS}ms` }}
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
            <button
              type="button"
              className="toast__close"
              aria-label="Close notification"
              onClick={() => dismiss(toast.id)}
            >
              ×
            </button>
          </div>
        ))}
      </section>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast must be used inside <ToastProvider>');
  return api;
}
