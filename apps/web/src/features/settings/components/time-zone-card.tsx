import { type FormEvent, useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useBusinessTimeZone, useSaveTimeZone } from '../../../lib/business-time-zone.ts';
import { TimeZonePicker } from '../../../lib/time-zone-picker.tsx';

function TimeZoneForm({ saved }: { saved: string }) {
  const toast = useToast();
  const save = useSaveTimeZone();
  const [choice, setChoice] = useState(saved);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const answer = await save.mutateAsync(choice);
      toast.success(answer.message);
    } catch (error) {
      toast.error(screenErrorMessage(error, 'Could not save the time zone.'));
    }
  };
  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label="Business time zone">
      <TimeZonePicker
        label="Business time zone"
        hint="Openings are typed, and alerts counted per day, in this zone."
        value={choice}
        onChange={setChoice}
      />
      <div className="form__actions">
        {choice !== saved ? (
          <Button variant="secondary" onClick={() => setChoice(saved)}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" busy={save.isPending} disabled={choice === saved}>
          Save time zone
        </Button>
      </div>
    </form>
  );
}

/** The business time zone, chosen by city from a searchable list (issue 39). */
export function TimeZoneCard() {
  const timeZone = useBusinessTimeZone();
  return (
    <Card className="stack">
      <header className="card__header">
        <h2 className="card__title">Time zone</h2>
        <p className="card__subtitle">
          Pick the city nearest your business; each shows the time it is there now.
        </p>
      </header>
      {timeZone.isPending ? (
        <Skeleton lines={2} label="Loading your time zone" />
      ) : timeZone.isError ? (
        <div className="stack">
          <Alert>{screenErrorMessage(timeZone.error, 'Failed to load your time zone.')}</Alert>
          <Button variant="secondary" onClick={() => timeZone.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <TimeZoneForm key={timeZone.data} saved={timeZone.data} />
      )}
    </Card>
  );
}
