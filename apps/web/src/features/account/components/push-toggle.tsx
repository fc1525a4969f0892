import { pushMessages, type User } from '@waitlist/contract';
import { Card } from '../../../components/ui/card.tsx';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { type PushBrowser, PushSetupError, usePushToggle } from '../api/push.ts';

/** Account → Information: push notifications to this phone (SPEC "mobile app access"; issue 14). */
export function PushToggle({ user, browser }: { user: User; browser?: PushBrowser }) {
  const toggle = usePushToggle(browser);
  const { setUser } = useAuth();
  const toast = useToast();
  return (
    <Card>
      <header className="card__header">
        <h2 className="card__title">Phone notifications</h2>
        <p className="card__subtitle">
          A notification when a customer claims a slot or replies, even with the app closed. Add the app to
          your home screen first on iPhone.
        </p>
      </header>
      <CheckboxField
        label="Push notifications on this device"
        checked={user.pushNotificationsEnabled}
        disabled={toggle.isPending}
        onChange={(event) =>
          toggle.mutate(event.target.checked, {
            onSuccess: (answer) => {
              setUser(answer.data);
              toast.success(answer.message);
            },
            onError: (error) =>
              toast.error(
                error instanceof PushSetupError
                  ? error.message
                  : screenErrorMessage(error, pushMessages.unsupported),
              ),
          })
        }
      />
    </Card>
  );
}
