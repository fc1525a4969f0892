import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card.tsx';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';

/** Account → Information: one setting in its own card, a title, what it does and one switch. */
export function SettingToggleCard(props: {
  title: string;
  description: ReactNode;
  label: string;
  checked: boolean;
  busy: boolean;
  onToggle: (checked: boolean) => void;
}) {
  return (
    <Card>
      <header className="card__header">
        <h2 className="card__title">{props.title}</h2>
        <p className="card__subtitle">{props.description}</p>
      </header>
      <CheckboxField
        label={props.label}
        checked={props.checked}
        disabled={props.busy}
        onChange={(event) => props.onToggle(event.target.checked)}
      />
    </Card>
  );
}
