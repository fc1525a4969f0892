import { pushMessages, type User } from '@waitlist/contract';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { type PushBrowser, PushSetupError, usePushToggle } from '../api/push.ts';
import { SettingToggleCard } from './setting-toggle-card.tsx';

/** Account → Information: push notifications to this phone (SPEC "mobile app access"; issue 14). */
export function PushToggle({ user, browser }: { user: User; browser?: PushBrowser }) {
  const toggle = usePushToggle(browser);
  return (
    <SettingToggleCard
      title="Phone notifications"
      description="A notification when a customer claims a slot or replies, even with the app closed. Add the app to your home screen first on iPhone."
      label="Push notifications on this device"
      checked={user.pushNotificationsEnabled}
      toggle={toggle}
      failure={(error) =>
        error instanceof PushSetupError ? error.message : screenErrorMessage(error, pushMessages.unsupported)
      }
    />
  );
}
