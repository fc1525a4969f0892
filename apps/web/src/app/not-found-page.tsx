import { Link } from 'react-router';
import { useAuth } from '../lib/auth.tsx';
import './not-found-page.css';
import '../components/ui/button.css';

export function NotFoundPage() {
  const { user } = useAuth();
  return (
    <div className="page not-found">
      <p className="not-found__code" aria-hidden="true">
        404
      </p>
      <h1 className="page__title">Page not found</h1>
      <p className="page__lead">The page you are looking for does not exist or has moved.</p>
      <Link className="button button--primary" to={user ? '/account' : '/login'}>
        {user ? 'Go to my account' : 'Go to log in'}
      </Link>
    </div>
  );
}
