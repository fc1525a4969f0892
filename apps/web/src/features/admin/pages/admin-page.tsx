import { Card } from '../../../components/ui/card.tsx';

/** Placeholder: the read-only user list arrives with the admin issue. */
export function AdminPage() {
  return (
    <div className="page">
      <h1 className="page__title">Admin</h1>
      <p className="page__lead">User management is on its way.</p>
      <Card className="admin-placeholder">
        <p className="muted">The read-only list of all users will appear here.</p>
      </Card>
    </div>
  );
}
