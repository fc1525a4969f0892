import { type AlertsToday, type CreateOpeningBody, openingModes } from '@waitlist/contract';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { isApiError, screenErrorMessage } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/auth.tsx';
import { applyServerFieldErrors } from '../../../lib/form-errors.ts';
import { useZodForm } from '../../../lib/zod-form.ts';
import { useCreateOpening } from '../api/create-opening.ts';
import { TimeZoneSetting } from './time-zone-setting.tsx';
import { resetsAtLabel, todayInZone } from './zoned-time.ts';

const whole = (value: string) => /^\d+$/.test(value.trim());

/** The form as typed (strings), checked before it becomes POST /openings. */
const openSlotForm = z
  .object({
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose the date'),
    time: z.string().regex(/^\d{2}:\d{2}$/, 'Choose the time'),
    service: z.string().trim().min(1, 'Service is required').max(200),
    durationMinutes: z
      .string()
      .refine(
        (value) => whole(value) && Number(value) >= 5 && Number(value) <= 1440,
        'Between 5 and 1440 minutes',
      ),
    price: z
      .string()
      .trim()
      .regex(/^(\d+(\.\d{1,2})?)?$/, 'A price like 45 or 45.50'),
    mode: z.enum(openingModes),
    waveSize: z.string(),
    claimWindowMinutes: z.string(),
  })
  .superRefine((form, ctx) => {
    if (form.mode !== 'waves') return;
    if (!whole(form.waveSize) || Number(form.waveSize) < 1 || Number(form.waveSize) > 100) {
      ctx.addIssue({ code: 'custom', path: ['waveSize'], message: 'Between 1 and 100 customers' });
    }
    if (
      !whole(form.claimWindowMinutes) ||
      Number(form.claimWindowMinutes) < 1 ||
      Number(form.claimWindowMinutes) > 1440
    ) {
      ctx.addIssue({ code: 'custom', path: ['claimWindowMinutes'], message: 'Between 1 and 1440 minutes' });
    }
  });
type OpenSlotFormValues = z.infer<typeof openSlotForm>;

export function toCreateOpeningBody(form: OpenSlotFormValues): CreateOpeningBody {
  const price = form.price.trim();
  return {
    startsAt: `${form.date}T${form.time}`,
    durationMinutes: Number(form.durationMinutes),
    service: form.service.trim(),
    priceCents: price ? Math.round(Number(price) * 100) : null,
    mode: form.mode,
    ...(form.mode === 'waves'
      ? { waveSize: Number(form.waveSize), claimWindowMinutes: Number(form.claimWindowMinutes) }
      : {}),
  };
}

const durations = [15, 30, 45, 60, 75, 90, 120, 180];

type OpenSlotFormProps = {
  timeZone: string;
  alertsToday: AlertsToday;
  readOnly: boolean;
};

/** Open a slot: its cancellation alert goes to the waitlist at once (or in waves). */
export function OpenSlotForm({ timeZone, alertsToday, readOnly }: OpenSlotFormProps) {
  const toast = useToast();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const create = useCreateOpening();
  const [formError, setFormError] = useState<string | null>(null);
  // A new key per failure: the same message twice still comes back into view.
  const [formErrorKey, setFormErrorKey] = useState(0);
  // A 403 while the number is not verified is the texting refusal: the way out is getting a number.
  const [numberRefused, setNumberRefused] = useState(false);
  const { register, handleSubmit, watch, setError, field, formState } = useZodForm(openSlotForm, {
    defaultValues: {
      date: todayInZone(timeZone),
      time: '',
      service: '',
      durationMinutes: '60',
      price: '',
      mode: 'all',
      waveSize: '3',
      claimWindowMinutes: '10',
    },
  });
  const mode = watch('mode');
  const usedUp = alertsToday.limit !== null && alertsToday.used >= alertsToday.limit;
  const resets = resetsAtLabel(alertsToday.resetsAt, timeZone);

  const onSubmit = handleSubmit(async (form) => {
    setFormError(null);
    try {
      const answer = await create.mutateAsync(toCreateOpeningBody(form));
      toast.success(answer.message ?? 'Cancellation alert sent');
      navigate(`/openings/${answer.data.id}`);
    } catch (error) {
      applyServerFieldErrors(error, setError, ['service']);
      setFormError(screenErrorMessage(error, 'Could not send the cancellation alert.'));
      setNumberRefused(isApiError(error) && error.status === 403 && user.plivoNumberStatus !== 'verified');
      setFormErrorKey((key) => key + 1);
    }
  });

  return (
    <Card>
      <header className="card__header open-slot__header">
        <h2 className="card__title">Open a slot</h2>
        <p className="card__subtitle">
          Someone cancelled? Your waitlist gets a text, and the first to reply YES gets the slot.
        </p>
        <p className="alerts-today" data-testid="alerts-today">
          Alerts used today:{' '}
          <strong>
            {alertsToday.used} of {alertsToday.limit ?? 'unlimited'}
          </strong>
          {alertsToday.limit !== null ? ` · resets ${resets}` : null}
        </p>
      </header>
      <form className="form" onSubmit={onSubmit} noValidate aria-label="Open a slot">
        {usedUp ? (
          <Alert tone="warning" title="No alerts left today">
            You have sent {alertsToday.used} of {alertsToday.limit} cancellation alert
            {alertsToday.limit === 1 ? '' : 's'} for today. The count resets {resets}. Upgrade on the Plan tab
            for more alerts per day.
          </Alert>
        ) : null}
        <div className="form__row form__row--2">
          <TextField label="Date" type="date" {...field('date')} />
          <TextField label="Time" type="time" {...field('time')} />
        </div>
        <div className="field__hint">
          <TimeZoneSetting timeZone={timeZone} readOnly={readOnly} />
        </div>
        <TextField label="Service" placeholder="Haircut with Ana" {...field('service')} />
        <div className="form__row form__row--2">
          <SelectField label="Duration" {...field('durationMinutes')}>
            {durations.map((minutes) => (
              <option key={minutes} value={String(minutes)}>
                {minutes < 60
                  ? `${minutes} min`
                  : `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Price ($)"
            labelNote="(optional)"
            inputMode="decimal"
            placeholder="45.00"
            hint="Counts toward revenue recovered when the slot fills."
            {...field('price')}
          />
        </div>
        <fieldset className="mode-choice">
          <legend className="field__label">Who gets the text</legend>
          <label className="mode-choice__option">
            <input type="radio" value="all" {...register('mode')} />
            <span>
              <strong>Everyone at once</strong>
              <span className="field__hint">The whole waitlist hears at the same time; first YES wins.</span>
            </span>
          </label>
          <label className="mode-choice__option">
            <input type="radio" value="waves" {...register('mode')} />
            <span>
              <strong>In waves</strong>
              <span className="field__hint">
                A few customers at a time, in waitlist order; the next wave goes out only if nobody claims in
                time.
              </span>
            </span>
          </label>
        </fieldset>
        {mode === 'waves' ? (
          <div className="form__row form__row--2">
            <TextField
              label="Customers per wave"
              inputMode="numeric"
              hint="1 = one customer at a time."
              {...field('waveSize')}
            />
            <TextField label="Claim window (minutes)" inputMode="numeric" {...field('claimWindowMinutes')} />
          </div>
        ) : null}
        {/* Next to the button that failed, and scrolled to: on a phone the top of the form is off-screen. */}
        {formError ? (
          <Alert key={formErrorKey} reveal>
            {formError}
            {numberRefused ? (
              <>
                {' '}
                <Link to="/account?tab=billing">Get your text number</Link>
              </>
            ) : null}
          </Alert>
        ) : null}
        <div className="form__actions">
          <Button type="submit" busy={formState.isSubmitting} disabled={readOnly || usedUp} block>
            Send cancellation alert
          </Button>
        </div>
      </form>
    </Card>
  );
}
