import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { timeZoneChoices, timeZoneLabel } from '../../../lib/time-zones.ts';
import { useSetTimeZone } from '../api/set-time-zone.ts';

/** "Times are in America/New_York · Change": the business's zone, changeable in place. */
export function TimeZoneSetting({ timeZone, readOnly }: { timeZone: string; readOnly: boolean }) {
  const toast = useToast();
  const save = useSetTimeZone();
  const [editing, setEditing] = useState(false);
  const [choice, setChoice] = useState(timeZone);
  const hintId = useId();

  if (!editing) {
    return (
      <span className="time-zone-setting" id={hintId}>
        In your business time zone ({timeZone}).{' '}
        {readOnly ? null : (
          <Button
            variant="link"
            onClick={() => setEditing(true)}
            aria-label={`Change time zone from ${timeZone}`}
          >
            Change
          </Button>
        )}
      </span>
    );
  }

  const onSave = async () => {
    try {
      const answer = await save.mutateAsync(choice);
      toast.success(answer.message);
      setEditing(false);
    } catch (error) {
      toast.error(screenErrorMessage(error, 'Could not save the time zone.'));
    }
  };

  return (
    <span className="time-zone-setting time-zone-setting--editing">
      <SelectField
        label="Business time zone"
        value={choice}
        onChange={(event) => setChoice(event.target.value)}
      >
        {timeZoneChoices(timeZone).map((zone) => (
          <option key={zone} value={zone}>
            {timeZoneLabel(zone)}
          </option>
        ))}
      </SelectField>
      <span className="form__actions">
        <Button variant="secondary" onClick={() => setEditing(false)}>
          Cancel
        </Button>
        <Button onClick={onSave} busy={save.isPending} disabled={choice === timeZone}>
          Save time zone
        </Button>
      </span>
    </span>
  );
}
