import type { ReactNode } from 'react';
import './badge.css';

type BadgeProps = {
  tone?: 'success' | 'warning' | 'danger' | 'info' | 'neutral' | 'primary';
  children: ReactNode;
};

/** A short status label ("Active", "Default", "Paid"). */
export function Badge({ tone = 'neutral', children }: BadgeProps) {
  return <span className={`badge badge--${tone}`}>{children}</span>;
}
