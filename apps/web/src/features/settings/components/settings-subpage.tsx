import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { usePageTitle } from '../../../lib/page-title.ts';
import { settingsGroups } from '../settings-groups.ts';
import './settings.css';

type SettingsSubpageProps = {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
};

/**
 * One page of Settings: its title, and the way back. A phone shows "← Settings" above the title; a wide
 * screen keeps the groups beside the page instead.
 */
export function SettingsSubpage({ title, lead, children }: SettingsSubpageProps) {
  usePageTitle(title, 'Settings');
  return (
    <div className="page settings">
      <div className="settings__layout">
        <nav className="settings__side" aria-label="Settings">
          <Link to="/settings" className="settings__side-title">
            Settings
          </Link>
          {settingsGroups.map((group) => (
            <NavLink key={group.to} to={group.to} className="settings__side-link">
              {group.name}
            </NavLink>
          ))}
        </nav>
        <div className="settings__main">
          <Link to="/settings" className="back-link settings__back">
            ← Settings
          </Link>
          <header className="settings__header">
            <h1 className="page__title">{title}</h1>
            {lead ? <p className="page__lead">{lead}</p> : null}
          </header>
          <div className="stack">{children}</div>
        </div>
      </div>
    </div>
  );
}
