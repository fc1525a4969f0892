import type { AlertsToday, CreateOpeningBody, OpeningPreview } from '@waitlist/contract';
import { useRef, useState } from 'react';
import type { UseFormSetError } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { isApiError, screenErrorMessage } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/auth.tsx';
import { applyServerFieldErrors } from '../../../lib/form-errors.ts';
import { textNumberLink } from '../../../lib/links.ts';
import { useZodForm } from '../../../lib/zod-form.ts';
import { useCreateOpening } from '../api/create-opening.ts';
import { usePreviewOpening } from '../api/preview-opening.ts';
import {
  type OpenSlotFormValues,
  openSlotDefaults,
  openSlotForm,
  toCreateOpeningBody,
} from './open-slot-schema.ts';
import { OpeningPreviewStep } from './opening-preview.tsx';
import { SendingModeFields } from './sending-mode-fields.tsx';
import { SlotServiceFields } from './slot-service-fields.tsx';
import { TimeZoneSetting } from './time-zone-setting.tsx';
import { resetsAtLabel, todayInZone } from './zoned-time.ts';

type Step = { body: CreateOpeningBody; preview: OpeningPreview } | null;

/**
 * The two steps of opening a slot: the form asks the server for the plan (POST /openings/preview, nothing
 * sent), and the owner's confirmation sends it (POST /openings).
 */
function useOpenSlot(setError: UseFormSetError<OpenSlotFormValues>) {
  const toast = useToast();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const preview = usePreviewOpening();
  const create = useCreateOpening();
  const [step, setStep] = useState<Step>(null);
  const [formError, setFormError] = useState<string | null>(null);
  // A new key per failure: the same message twice still comes back into view.
  const [formErrorKey, setFormErrorKey] = useState(0);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  // A 403 while the number is not verified is the texting refusal: the way out is getting a number.
  const [numberRefused, setNumberRefused] = useState(false);

  const fail = (error: unknown) => {
    applyServerFieldErrors(error, setError, ['service', 'durationMinutes', 'price', 'staffId']);
    setFormError(screenErrorMessage(error, 'Could not send the cancellation alert.'));
    setNumberRefused(isApiError(error) && error.status === 403 && user.plivoNumberStatus !== 'verified');
    setFormErrorKey((key) => key + 1);
  };

  const review = async (form: OpenSlotFormValues) => {
    setFormError(null);
    setConfirmError(null);
    const body = toCreateOpeningBody(form);
    try {
      setStep({ body, preview: await preview.mutateAsync(body) });
    } catch (error) {
      fail(error);
    }
  };

  const confirm = async () => {
    if (!step) return;
    setConfirmError(null);
    try {
      const answer = await create.mutateAsync(step.body);
      toast.success(answer.message ?? 'Cancellation alert sent');
      navigate(`/openings/${answer.data.id}`);
    } catch (error) {
      // A refusal (a field, the day's alerts, the number, nobody fits) is fixed on the form; a failure to
      // reach the server is tried again from here.
      if (isApiError(error) && error.status >= 400 && error.status < 500) {
        setStep(null);
        fail(error);
      } else setConfirmError(screenErrorMessage(error, 'Could not send the cancellation alert.'));
    }
  };

  return {
    step,
    back: () => setStep(null),
    review,
    confirm,
    sending: create.isPending,
    formError,
    formErrorKey,
    confirmError,
    numberRefused,
  };
}

type OpenSlotFormProps = {
  timeZone: string;
  alertsToday: AlertsToday;
  readOnly: boolean;
};

/** Open a slot: the owner sees who the alert would text and why, then sends it. */
export function OpenSlotForm({ timeZone, alertsToday, readOnly }: OpenSlotFormProps) {
  // ?startsAt=YYYY-MM-DDTHH:MM (a gap tapped in the day view, issue 29) fills in the date and time.
  const startsAt = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(useSearchParams()[0].get('startsAt') ?? '');
  const form = useZodForm(openSlotForm, {
    defaultValues: {
      ...openSlotDefaults(startsAt?.[1] ?? todayInZone(timeZone)),
      ...(startsAt ? { time: startsAt[2] } : {}),
    },
  });
  const { register, handleSubmit, watch, field, formState } = form;
  const slot = useOpenSlot(form.setError);
  const formRef = useRef<HTMLFormElement>(null);
  const usedUp = alertsToday.limit !== null && alertsToday.used >= alertsToday.limit;
  const resets = resetsAtLabel(alertsToday.resetsAt, timeZone);
  const back = () => {
    slot.back();
    // Back where the owner left: the button that asked for the plan.
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[type="submit"]')?.focus());
  };

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
      {slot.step ? (
        <OpeningPreviewStep
          preview={slot.step.preview}
          timeZone={timeZone}
          sending={slot.sending}
          error={slot.confirmError}
          onBack={back}
          onConfirm={slot.confirm}
        />
      ) : null}
      {/* Kept mounted while the plan shows, so Back returns to the form as the owner left it. */}
      <div hidden={slot.step !== null}>
        <form
          ref={formRef}
          className="form"
          onSubmit={handleSubmit(slot.review)}
          noValidate
          aria-label="Open a slot"
        >
          {usedUp ? (
            <Alert tone="warning" title="No alerts left today">
              You have sent {alertsToday.used} of {alertsToday.limit} cancellation alert
              {alertsToday.limit === 1 ? '' : 's'} for today. The count resets {resets}. Upgrade on the Plan
              tab for more alerts per day.
            </Alert>
          ) : null}
          <div className="form__row form__row--2">
            <TextField label="Date" type="date" {...field('date')} />
            <TextField label="Time" type="time" {...field('time')} />
          </div>
          <div className="field__hint">
            <TimeZoneSetting timeZone={timeZone} readOnly={readOnly} />
          </div>
          <SlotServiceFields form={form} field={field} />
          <SendingModeFields register={register} field={field} values={watch()} />
          {/* Next to the button that failed, and scrolled to: on a phone the top of the form is off-screen. */}
          {slot.formError ? (
            <Alert key={slot.formErrorKey} reveal>
              {slot.formError}
              {slot.numberRefused ? (
                <>
                  {' '}
                  <Link to={textNumberLink}>Get your text number</Link>
                </>
              ) : null}
            </Alert>
          ) : null}
          <div className="form__actions">
            <Button type="submit" busy={formState.isSubmitting} disabled={readOnly || usedUp} block>
              See who gets the text
            </Button>
          </div>
        </form>
      </div>
    </Card>
  );
}
