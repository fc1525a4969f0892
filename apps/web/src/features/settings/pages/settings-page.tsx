import { Link } from 'react-router';
import { usePageTitle } from '../../../lib/page-title.ts';
import '../components/settings.css';
import { settingsGroups } from '../settings-groups.ts';

/** "/settings/offer-rules" → "settings-offer-rules": a card's ids for its name and its line. */
const idOf = (to: string) => to.slice(1).replaceAll('/', '-');

/** /settings: every group an owner sets something in, one card each with what it holds (issue 39). */
export function SettingsPage() {
  usePageTitle('Settings');
  return (
    <div className="page settings">
      <header className="settings__header">
        <h1 className="page__title">Settings</h1>
        <p className="page__lead">How your business, its texts and its calendar are set up.</p>
      </header>
      <ul className="settings-index" aria-label="Settings groups">
        {settingsGroups.map((group) => (
          <li key={group.to}>
            <Link
              to={group.to}
              className="settings-index__card"
              aria-labelledby={`${idOf(group.to)}-name`}
              aria-describedby={`${idOf(group.to)}-line`}
            >
              <span id={`${idOf(group.to)}-name`} className="settings-index__name">
                {group.name}
              </span>
              <span id={`${idOf(group.to)}-line`} className="settings-index__line">
                {group.line}
              </span>
              <span className="settings-index__arrow" aria-hidden="true">
                ›
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <p className="settings__elsewhere">
        Your plan and payments are on My Account: <Link to="/account?tab=plan">Plan</Link> ·{' '}
        <Link to="/account?tab=billing">Billing</Link>. Your own name, email and password:{' '}
        <Link to="/account">My Account</Link>.
      </p>
    </div>
  );
}
