import type { ReactNode } from 'react';
import './alert.css';

type AlertProps = {
  tone?: 'error' | 'success' | 'info' | 'warning';
  title?: string;
  children: ReactNode;
};

/** An inline message inside a page or form. Errors interrupt screen readers; the rest wait. */
export function Alert({ tone = 'error', title, children }: AlertProps) {
  return (
    <div className={`alert alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {title ? <p className="alert__title">{title}</p> : null}
      <div className="alert__body">{children}</div>
    </div>
  );
}
