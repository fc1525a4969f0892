import {
  MAX_DAILY_OFFER_CAP,
  type OfferSettings,
  offerMessages,
  offerSettingsBody,
  SEND_WINDOW_LIMITS,
} from '@waitlist/contract';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { clockLabel } from '../../../lib/clock.ts';
import { applyServerFieldErrors } from '../../../lib/form-errors.ts';
import { useZodForm } from '../../../lib/zod-form.ts';
import { useOfferSettings, useSaveOfferSettings } from '../api/offer-settings.ts';

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const hhmmOf = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Every half hour the law and the carriers allow: 8:00 am to 9:00 pm. */
const sendTimes = Array.from(
  { length: (toMinutes(SEND_WINDOW_LIMITS.until) - toMinutes(SEND_WINDOW_LIMITS.from)) / 30 + 1 },
  (_, index) => hhmmOf(toMinutes(SEND_WINDOW_LIMITS.from) + index * 30),
);

function OfferRulesForm({ settings }: { settings: OfferSettings }) {
  const toast = useToast();
  const save = useSaveOfferSettings();
  const [formError, setFormError] = useState<string | null>(null);
  const { handleSubmit, setError, field, formState } = useZodForm(offerSettingsBody, {
    defaultValues: settings,
  });
  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await save.mutateAsync(values);
      toast.success(answer.message ?? offerMessages.settingsSaved);
    } catch (error) {
      applyServerFieldErrors(error, setError, ['sendFrom', 'sendUntil', 'dailyOfferCap']);
      setFormError(screenErrorMessage(error, 'Could not save your offer rules.'));
    }
  });
  const times = sendTimes.map((time) => (
    <option key={time} value={time}>
      {clockLabel(time)}
    </option>
  ));
  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label="Offer rules">
      {formError ? <Alert>{formError}</Alert> : null}
      <div className="form__row form__row--2">
        <SelectField label="Texts go out from" {...field('sendFrom')}>
          {times}
        </SelectField>
        <SelectField label="Until" {...field('sendUntil')}>
          {times}
        </SelectField>
      </div>
      <TextField
        label="Offers a customer gets a day"
        type="number"
        inputMode="numeric"
        min={1}
        max={MAX_DAILY_OFFER_CAP}
        hint={`1 to ${MAX_DAILY_OFFER_CAP}. "It's been filled" texts count too.`}
        {...field('dailyOfferCap', { valueAsNumber: true })}
      />
      <div className="form__actions">
        <Button type="submit" busy={formState.isSubmitting}>
          Save offer rules
        </Button>
      </div>
    </form>
  );
}

/** When offers may be texted, in each customer's own time zone, and how many a customer gets a day. */
export function OfferRulesCard() {
  const settings = useOfferSettings();
  return (
    <Card className="stack">
      {settings.isPending ? (
        <Skeleton lines={3} label="Loading your offer rules" />
      ) : settings.isError ? (
        <div className="stack">
          <Alert>{screenErrorMessage(settings.error, 'Failed to load your offer rules.')}</Alert>
          <Button variant="secondary" onClick={() => settings.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <OfferRulesForm settings={settings.data} />
      )}
    </Card>
  );
}
