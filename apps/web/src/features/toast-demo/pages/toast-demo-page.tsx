import type { ComponentProps } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { type ToastType, useToast } from '../../../components/ui/toast.tsx';
import './toast-demo-page.css';

/** One button per kind of toast, each with a message like the ones the app shows. */
const demos: {
  kind: ToastType;
  title: string;
  message: string;
  variant?: ComponentProps<typeof Button>['variant'];
}[] = [
  { kind: 'success', title: 'Success', message: 'Your changes have been saved.' },
  { kind: 'error', title: 'Error', message: 'Something went wrong. Please try again.', variant: 'danger' },
  { kind: 'warning', title: 'Warning', message: 'Your trial ends in 2 days.', variant: 'secondary' },
  { kind: 'info', title: 'Info', message: 'A new feature is available.', variant: 'secondary' },
];

export function ToastDemoPage() {
  const toast = useToast();
  return (
    <div className="page">
      <h1 className="page__title">Toast demo</h1>
      <p className="page__lead">Every notification type the app uses. Each one closes itself or on ×.</p>
      <Card className="toast-demo">
        <div className="toast-demo__actions">
          {demos.map(({ kind, title, message, variant }) => (
            <Button key={kind} variant={variant} onClick={() => toast[kind](message, { title })}>
              Show {kind} toast
            </Button>
          ))}
        </div>
      </Card>
    </div>
  );
}
