import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import './toast-demo-page.css';

export function ToastDemoPage() {
  const toast = useToast();
  return (
    <div className="page">
      <h1 className="page__title">Toast demo</h1>
      <p className="page__lead">Every notification type the app uses. Each one closes itself or on ×.</p>
      <Card className="toast-demo">
        <div className="toast-demo__actions">
          <Button onClick={() => toast.success('Your changes have been saved.', { title: 'Success' })}>
            Show success toast
          </Button>
          <Button
            variant="danger"
            onClick={() => toast.error('Something went wrong. Please try again.', { title: 'Error' })}
          >
            Show error toast
          </Button>
          <Button
            variant="secondary"
            onClick={() => toast.warning('Your trial ends in 2 days.', { title: 'Warning' })}
          >
            Show warning toast
          </Button>
          <Button
            variant="secondary"
            onClick={() => toast.info('A new feature is available.', { title: 'Info' })}
          >
            Show info toast
          </Button>
        </div>
      </Card>
    </div>
  );
}
