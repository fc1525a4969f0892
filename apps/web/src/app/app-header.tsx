import type { User } from '@waitlist/contract';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { BrandMark } from '../components/ui/brand-mark.tsx';
import { useUnreadReplies } from '../features/waitlist/api/inbox-unread.ts';
import { useAuth } from '../lib/auth.tsx';
import { guardRedirect } from './guards.tsx';
import './app-header.css';

/** The number of unread replies beside "Inbox", read out as such; nothing when there are none. */
function UnreadBadge({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <span className="app-header__badge" data-testid="inbox-badge">
      {count > 99 ? '99+' : count}
      <span className="visually-hidden"> unread</span>
    </span>
  );
}

/** The main pages, in the header's nav on a wide screen and in the phone menu. */
const mainPages = [
  { to: '/waitlist', name: 'Waitlist' },
  { to: '/openings', name: 'Openings' },
  { to: '/day', name: 'Day' },
  { to: '/services', name: 'Services' },
  { to: '/inbox', name: 'Inbox' },
  { to: '/dashboard', name: 'Dashboard' },
] as const;

/**
 * Where an owner sets things (issue 39), after My Account: SPEC §2's Plan and Billing tabs by their `?tab=`
 * addresses, and Settings. Each needs onboarding done, like the pages they lead to.
 */
const accountPages = [
  { to: '/account', name: 'My Account', onboarded: false },
  { to: '/account?tab=plan', name: 'Plan', onboarded: true },
  { to: '/account?tab=billing', name: 'Billing', onboarded: true },
  { to: '/settings', name: 'Settings', onboarded: true },
] as const;

/** Whether a link of `accountPages` is the page shown: the account's tabs are told apart by `?tab=`. */
function useIsCurrent() {
  const { pathname, search } = useLocation();
  const tab = new URLSearchParams(search).get('tab');
  const shownTab = tab === 'plan' || tab === 'billing' ? tab : null;
  return (to: string) => {
    const [path, query] = to.split('?');
    if (path === '/settings') return pathname === '/settings' || pathname.startsWith('/settings/');
    return pathname === path && (new URLSearchParams(query).get('tab') ?? null) === shownTab;
  };
}

function AccountLinks({ onboarded }: { onboarded: boolean }) {
  const isCurrent = useIsCurrent();
  return accountPages
    .filter((page) => onboarded || !page.onboarded)
    .map((page) => (
      <Link
        key={page.to}
        to={page.to}
        className={`mobile-menu__link${isCurrent(page.to) ? ' active' : ''}`}
        aria-current={isCurrent(page.to) ? 'page' : undefined}
      >
        {page.name}
      </Link>
    ));
}

function MainLinks({ className, unread }: { className: string; unread: number }) {
  return mainPages.map((page) => (
    <NavLink key={page.to} to={page.to} className={className}>
      {page.name}
      {page.to === '/inbox' ? (
        <>
          {' '}
          <UnreadBadge count={unread} />
        </>
      ) : null}
    </NavLink>
  ));
}

/** The phone's menu: the main pages, then every place an owner sets something, then Logout. */
function MobileMenu({
  user,
  onboarded,
  unread,
  onLogout,
}: {
  user: User;
  onboarded: boolean;
  unread: number;
  onLogout: () => void;
}) {
  return (
    <nav id="mobile-menu" className="mobile-menu" aria-label="Main menu">
      <p className="mobile-menu__user">
        {user.firstName} {user.lastName}
        <span>{user.email}</span>
      </p>
      {onboarded ? <MainLinks className="mobile-menu__link" unread={unread} /> : null}
      <hr className="mobile-menu__divider" />
      <AccountLinks onboarded={onboarded} />
      {user.admin ? (
        <NavLink to="/admin" className="mobile-menu__link">
          Admin
        </NavLink>
      ) : null}
      <button type="button" className="mobile-menu__link" onClick={onLogout}>
        Logout
      </button>
    </nav>
  );
}

export function AppHeader({ user }: { user: User }) {
  const { logout } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [mobileOpen, setMobileOpen] = useState(false);
  // Waitlist and Openings only once onboarding is done: before that they would bounce straight back.
  const onboarded = guardRedirect('full', user) === null;
  // Unread customer replies (issue 15): polled, and refreshed when the owner comes back to the tab.
  const unread = useUnreadReplies(onboarded).data ?? 0;

  // Any navigation closes the mobile menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on location change by design
  useEffect(() => setMobileOpen(false), [location.key]);

  const onLogout = async () => {
    await logout();
    navigate('/login', { replace: true });
  };

  return (
    <header className="app-header">
      <div className="app-header__inner">
        <Link to="/" className="app-header__brand" aria-label="Waitlist & Text home">
          <BrandMark compact />
        </Link>
        <nav className="app-header__nav" aria-label="Main">
          {onboarded ? <MainLinks className="app-header__nav-link" unread={unread} /> : null}
        </nav>
        <AccountMenu user={user} onboarded={onboarded} onLogout={onLogout} />
        <button
          type="button"
          className="app-header__hamburger"
          aria-label={unread > 0 ? `Open menu, ${unread} unread` : 'Open menu'}
          aria-expanded={mobileOpen}
          aria-controls="mobile-menu"
          onClick={() => setMobileOpen((open) => !open)}
        >
          <span aria-hidden="true" className={`hamburger${mobileOpen ? ' hamburger--open' : ''}`}>
            <span />
            <span />
            <span />
          </span>
          {/* On a phone the inbox link hides in the menu: its count shows on the button (issue 27). */}
          {onboarded && unread > 0 ? (
            <span className="app-header__hamburger-badge" aria-hidden="true" data-testid="menu-badge">
              {unread > 99 ? '99+' : unread}
            </span>
          ) : null}
        </button>
      </div>
      {mobileOpen ? (
        <MobileMenu user={user} onboarded={onboarded} unread={unread} onLogout={onLogout} />
      ) : null}
    </header>
  );
}

const menuItems = (menu: HTMLElement | null) => [
  ...(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []),
];

/** The menu's keys (WAI-ARIA menu pattern): arrows, Home and End move; Escape and Tab close. */
function menuKeyDown(
  event: KeyboardEvent<HTMLDivElement>,
  menu: HTMLElement | null,
  close: (focusButton: boolean) => void,
) {
  const list = menuItems(menu);
  const index = list.indexOf(document.activeElement as HTMLElement);
  const focusAt = (next: number) => list[(next + list.length) % list.length]?.focus();
  switch (event.key) {
    case 'ArrowDown':
      event.preventDefault();
      focusAt(index + 1);
      break;
    case 'ArrowUp':
      event.preventDefault();
      focusAt(index - 1);
      break;
    case 'Home':
      event.preventDefault();
      focusAt(0);
      break;
    case 'End':
      event.preventDefault();
      focusAt(list.length - 1);
      break;
    case 'Escape':
      event.preventDefault();
      close(true);
      break;
    case 'Tab':
      close(false);
      break;
  }
}

/** The desktop "Account" dropdown, following the WAI-ARIA menu button pattern. */
function AccountMenu({
  user,
  onboarded,
  onLogout,
}: {
  user: User;
  onboarded: boolean;
  onLogout: () => void;
}) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const wrapperRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    menuItems(menuRef.current)[0]?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!wrapperRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => menuKeyDown(event, menuRef.current, close);

  return (
    <div className="account-menu" ref={wrapperRef}>
      <button
        ref={buttonRef}
        type="button"
        className="pill-button account-menu__button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={onButtonKeyDown}
      >
        <span className="account-menu__avatar" aria-hidden="true">
          {(user.firstName[0] ?? user.email[0] ?? '?').toUpperCase()}
        </span>
        Account
        <span className="account-menu__caret" aria-hidden="true" />
      </button>
      {open ? (
        <div
          id={menuId}
          ref={menuRef}
          className="account-menu__list"
          role="menu"
          aria-label="Account"
          tabIndex={-1}
          onKeyDown={onMenuKeyDown}
        >
          <p className="account-menu__who" role="none">
            <span>
              {user.firstName} {user.lastName}
            </span>
            <span className="account-menu__email">{user.email}</span>
          </p>
          {accountPages
            .filter((page) => onboarded || !page.onboarded)
            .map((page) => (
              <Link
                key={page.to}
                role="menuitem"
                tabIndex={-1}
                className="account-menu__item"
                to={page.to}
                onClick={() => close(false)}
              >
                {page.name}
              </Link>
            ))}
          {user.admin ? (
            <Link
              role="menuitem"
              tabIndex={-1}
              className="account-menu__item"
              to="/admin"
              onClick={() => close(false)}
            >
              Admin
            </Link>
          ) : null}
          <button
            role="menuitem"
            tabIndex={-1}
            type="button"
            className="account-menu__item account-menu__item--logout"
            onClick={() => {
              close(false);
              onLogout();
            }}
          >
            Logout
          </button>
        </div>
      ) : null}
    </div>
  );
}
