import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card.tsx';
import './subscription-result.css';

/** Where the hosted checkout sends the owner back: a round mark, then what happened and where to go next. */
export function SubscriptionResult({
  mark,
  tone,
  children,
}: {
  mark: string;
  tone?: 'error' | 'neutral';
  children: ReactNode;
}) {
  return (
    <div className="page subscription-result">
      <Card className="subscription-result__card">
        <span
          className={`round-icon subscription-result__icon${tone ? ` subscription-result__icon--${tone}` : ''}`}
          aria-hidden="true"
        >
          {mark}
        </span>
        {children}
      </Card>
    </div>
  );
}
