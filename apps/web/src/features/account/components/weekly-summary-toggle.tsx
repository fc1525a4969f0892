import { type User, weeklySummaryMessages } from '@waitlist/contract';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { useWeeklySummaryToggle } from '../api/weekly-summary.ts';
import { SettingToggleCard } from './setting-toggle-card.tsx';

/** Account → Information: the Monday email "Your waitlist recovered $X this week" (issue 14). */
export function WeeklySummaryToggle({ user }: { user: User }) {
  const toggle = useWeeklySummaryToggle();
  const { setUser } = useAuth();
  const toast = useToast();
  return (
    <SettingToggleCard
      title="Weekly summary"
      description="Every Monday morning, an email with what your waitlist recovered last week: filled slots, fill rate and texts sent."
      label="Send me the Monday summary"
      checked={user.weeklySummaryEnabled}
      busy={toggle.isPending}
      onToggle={(checked) =>
        toggle.mutate(checked, {
          onSuccess: (answer) => {
            setUser(answer.data);
            toast.success(answer.message);
          },
          onError: (error) => toast.error(screenErrorMessage(error, weeklySummaryMessages.saveFailed)),
        })
      }
    />
  );
}
