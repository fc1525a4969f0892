import { type ReactNode, useEffect, useRef } from 'react';
import './alert.css';

type AlertProps = {
  tone?: 'error' | 'success' | 'info' | 'warning';
  title?: string;
  children: ReactNode;
  /**
   * Brings the message into view (and focus) when it appears: for an error that answers a button far
   * below it, which on a phone would otherwise appear off-screen.
   */
  reveal?: boolean;
};

/** An inline message inside a page or form. Errors interrupt screen readers; the rest wait. */
export function Alert({ tone = 'error', title, children, reveal = false }: AlertProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!reveal || !ref.current) return;
    ref.current.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
    ref.current.focus({ preventScroll: true });
  }, [reveal]);
  return (
    <div
      ref={ref}
      className={`alert alert--${tone}`}
      role={tone === 'error' ? 'alert' : 'status'}
      tabIndex={reveal ? -1 : undefined}
      data-reveal={reveal || undefined}
    >
      {title ? <p className="alert__title">{title}</p> : null}
      <div className="alert__body">{children}</div>
    </div>
  );
}
