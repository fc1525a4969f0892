import { type User, weeklySummaryMessages } from '@waitlist/contract';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useWeeklySummaryToggle } from '../api/weekly-summary.ts';
import { SettingToggleCard } from './setting-toggle-card.tsx';

/** Account → Information: the Monday email "Your waitlist recovered $X this week" (issue 14). */
export function WeeklySummaryToggle({ user }: { user: User }) {
  const toggle = useWeeklySummaryToggle();
  return (
    <SettingToggleCard
      title="Weekly summary"
      description="Every Monday morning, an email with what your waitlist recovered last week: filled slots, fill rate and texts sent."
      label="Send me the Monday summary"
      checked={user.weeklySummaryEnabled}
      toggle={toggle}
      failure={(error) => screenErrorMessage(error, weeklySummaryMessages.saveFailed)}
    />
  );
}
