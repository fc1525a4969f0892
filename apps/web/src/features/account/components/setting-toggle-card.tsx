import type { UseMutationResult } from '@tanstack/react-query';
import type { User } from '@waitlist/contract';
import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card.tsx';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { useAuth } from '../../../lib/auth.tsx';

/** What a setting's switch calls: it turns the setting on or off and answers with the updated user. */
export type SettingToggle = UseMutationResult<{ data: User; message: string }, Error, boolean>;

/**
 * Account → Information: one setting in its own card, a title, what it does and one switch. Flipping the
 * switch saves at once; the updated user replaces the signed-in one and the server's message is shown.
 */
export function SettingToggleCard(props: {
  title: string;
  description: ReactNode;
  label: string;
  checked: boolean;
  toggle: SettingToggle;
  /** The message shown when saving fails. */
  failure: (error: Error) => string;
}) {
  const { setUser } = useAuth();
  const toast = useToast();
  const onToggle = (checked: boolean) =>
    props.toggle.mutate(checked, {
      onSuccess: (answer) => {
        setUser(answer.data);
        toast.success(answer.message);
      },
      onError: (error) => toast.error(props.failure(error)),
    });
  return (
    <Card>
      <header className="card__header">
        <h2 className="card__title">{props.title}</h2>
        <p className="card__subtitle">{props.description}</p>
      </header>
      <CheckboxField
        label={props.label}
        checked={props.checked}
        disabled={props.toggle.isPending}
        onChange={(event) => onToggle(event.target.checked)}
      />
    </Card>
  );
}
