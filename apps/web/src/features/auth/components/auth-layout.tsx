import type { ReactNode } from 'react';
import { BrandMark } from '../../../components/ui/brand-mark.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import './auth-layout.css';

type AuthLayoutProps = {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
};

/**
 * The centred card every signed-out screen (and verification) sits in. The logo stands above the card only
 * for a visitor: a signed-in user (verification) already has it in the app header, and sees it once.
 */
export function AuthLayout({ title, subtitle, children, footer }: AuthLayoutProps) {
  const { user } = useAuth();
  return (
    <div className="auth-layout">
      <div className="auth-layout__inner">
        {user ? null : (
          <div className="auth-layout__brand">
            <BrandMark />
          </div>
        )}
        <div className="auth-card">
          <header className="auth-card__header">
            <h1 className="auth-card__title">{title}</h1>
            {subtitle ? <p className="auth-card__subtitle">{subtitle}</p> : null}
          </header>
          {children}
        </div>
        {footer ? <div className="auth-layout__footer">{footer}</div> : null}
      </div>
    </div>
  );
}
