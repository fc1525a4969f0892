import { type User, weeklySummaryMessages } from '@waitlist/contract';
import { Card } from '../../../components/ui/card.tsx';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { useWeeklySummaryToggle } from '../api/weekly-summary.ts';

/** Account → Information: the Monday email "Your waitlist recovered $X this week" (issue 14). */
export function WeeklySummaryToggle({ user }: { user: User }) {
  const toggle = useWeeklySummaryToggle();
  const { setUser } = useAuth();
  const toast = useToast();
  return (
    <Card>
      <header className="card__header">
        <h2 className="card__title">Weekly summary</h2>
        <p className="card__subtitle">
          Every Monday morning, an email with what your waitlist recovered last week: filled slots, fill rate
          and texts sent.
        </p>
      </header>
      <CheckboxField
        label="Email me the weekly summary"
        checked={user.weeklySummaryEnabled}
        disabled={toggle.isPending}
        onChange={(event) =>
          toggle.mutate(event.target.checked, {
            onSuccess: (answer) => {
              setUser(answer.data);
              toast.success(answer.message);
            },
            onError: (error) => toast.error(screenErrorMessage(error, weeklySummaryMessages.saveFailed)),
          })
        }
      />
    </Card>
  );
}
