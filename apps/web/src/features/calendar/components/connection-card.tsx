import {
  CALENDAR_GRACE_MINUTES,
  CALENDAR_HORIZON_DAYS,
  CALENDAR_MODES,
  type CalendarConnection,
  calendarKindLabels,
  calendarMessages,
  calendarModeLabels,
} from '@waitlist/contract';
import { useState } from 'react';
import { type Path, useFieldArray } from 'react-hook-form';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { ChoiceSelect, SelectField } from '../../../components/ui/select-field.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { applyServerFieldErrors } from '../../../lib/form-errors.ts';
import { useServiceChoices, useServices, useStaff } from '../../../lib/services-and-staff.ts';
import { useZodForm } from '../../../lib/zod-form.ts';
import { useDisconnectCalendar, useSaveCalendarSettings, useSyncCalendar } from '../api/calendar.ts';
import { checkedAgo } from './checked-ago.ts';
import { type SettingsFormValues, settingsForm, settingsValues, toSettingsBody } from './settings-form.ts';

/** "3:45 PM": when the next read is, in the owner's own clock. */
const clockTime = (iso: string) =>
  new Date(iso).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });

function SettingsForm({ connection }: { connection: CalendarConnection }) {
  const toast = useToast();
  const save = useSaveCalendarSettings();
  const { services, staff } = useServiceChoices();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useZodForm(settingsForm, { defaultValues: settingsValues(connection) });
  const { field, handleSubmit, watch, control, formState } = form;
  const rules = useFieldArray({ control, name: 'rules' });
  const label = connection.name;

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await save.mutateAsync({ id: connection.id, body: toSettingsBody(values) });
      toast.success(answer.message ?? calendarMessages.settingsSaved);
    } catch (error) {
      const fields = ['mode', 'horizonDays', 'graceMinutes', 'exclude'] as Path<SettingsFormValues>[];
      rules.fields.forEach((_, index) => {
        fields.push(`rules.${index}.contains`, `rules.${index}.serviceId`, `rules.${index}.staffId`);
      });
      applyServerFieldErrors(error, form.setError, fields);
      setFormError(screenErrorMessage(error, 'Could not save the calendar settings.'));
    }
  });

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label={`Settings for ${label}`}>
      {formError ? <Alert>{formError}</Alert> : null}
      <div className="form__row form__row--2">
        <SelectField label="When an appointment is cancelled" {...field('mode')}>
          {CALENDAR_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {calendarModeLabels[mode]}
            </option>
          ))}
        </SelectField>
        {watch('mode') === 'auto' ? (
          <TextField
            label="Wait before opening (minutes)"
            type="number"
            inputMode="numeric"
            min={CALENDAR_GRACE_MINUTES.min}
            max={CALENDAR_GRACE_MINUTES.max}
            hint="Time to stop it before the texts go out."
            {...field('graceMinutes', { valueAsNumber: true })}
          />
        ) : null}
      </div>
      <TextField
        label="Look ahead (days)"
        type="number"
        inputMode="numeric"
        min={CALENDAR_HORIZON_DAYS.min}
        max={CALENDAR_HORIZON_DAYS.max}
        hint="Cancellations further off than this open nothing."
        {...field('horizonDays', { valueAsNumber: true })}
      />
      <TextField
        label="Never open events called"
        hint="Words separated by commas, such as Lunch, Blocked."
        {...field('exclude')}
      />
      <fieldset className="calendar-rules">
        <legend className="field__label">Title rules</legend>
        <p className="field__hint">An event whose title contains the words becomes that service.</p>
        {rules.fields.map((rule, index) => (
          <div key={rule.id} className="calendar-rules__row" data-testid="calendar-rule">
            <TextField label="Title contains" {...field(`rules.${index}.contains`)} />
            <ChoiceSelect
              label="Service"
              none="Any service"
              choices={services}
              {...field(`rules.${index}.serviceId`)}
            />
            <ChoiceSelect label="Staff" none="Anyone" choices={staff} {...field(`rules.${index}.staffId`)} />
            <TextField
              label="Price ($)"
              inputMode="decimal"
              labelNote="(optional)"
              {...field(`rules.${index}.price`)}
            />
            <Button
              variant="ghost"
              onClick={() => rules.remove(index)}
              aria-label={`Remove rule ${index + 1}`}
            >
              Remove
            </Button>
          </div>
        ))}
        <div>
          <Button
            variant="secondary"
            onClick={() => rules.append({ contains: '', serviceId: '', staffId: '', price: '' })}
          >
            Add a rule
          </Button>
        </div>
      </fieldset>
      <div className="form__actions">
        <Button type="submit" busy={formState.isSubmitting}>
          Save settings
        </Button>
      </div>
    </form>
  );
}

/** One connected calendar: how it is, what it does with a cancellation, and the buttons to check or remove it. */
export function ConnectionCard({ connection }: { connection: CalendarConnection }) {
  const toast = useToast();
  const sync = useSyncCalendar();
  const disconnect = useDisconnectCalendar();
  const [confirming, setConfirming] = useState(false);
  const [syncError, setSyncError] = useState<string | null>(null);
  const services = useServices();
  const staff = useStaff();

  const checkNow = async () => {
    setSyncError(null);
    try {
      const answer = await sync.mutateAsync(connection.id);
      toast.success(answer.message ?? calendarMessages.synced);
    } catch (error) {
      setSyncError(screenErrorMessage(error, 'Could not check the calendar.'));
    }
  };

  return (
    <li className="calendar-connection" aria-label={connection.name}>
      <Card className="stack">
        <header className="calendar-connection__header">
          <div>
            <h2 className="calendar-connection__name">{connection.name}</h2>
            <p className="muted calendar-connection__meta">
              {calendarKindLabels[connection.kind]}
              {connection.account ? ` · ${connection.account}` : ''} · checked{' '}
              {checkedAgo(connection.lastSyncedAt)}
            </p>
          </div>
          {connection.status === 'error' ? (
            <Badge tone="danger">Needs attention</Badge>
          ) : (
            <Badge tone="success">Connected</Badge>
          )}
        </header>
        {connection.status === 'error' ? (
          <Alert>
            <p>{connection.lastError ?? calendarMessages.unreachable}</p>
            {connection.failures > 1 ? (
              <p>{calendarMessages.backingOff(connection.failures, clockTime(connection.nextSyncAt))}</p>
            ) : null}
          </Alert>
        ) : null}
        {connection.skipped.length > 0 ? (
          <Alert tone="info" title="Not everything in this calendar is watched">
            <ul className="calendar-connection__skipped">
              {[...new Set(connection.skipped.map((event) => event.message))].map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          </Alert>
        ) : null}
        {connection.writesBookings ? null : (
          <Alert tone="info" title="Read-only: book by hand">
            {calendarMessages.bookByHand}
          </Alert>
        )}
        {syncError ? <Alert>{syncError}</Alert> : null}
        {/* The rules' selects need their choices before the form sets their values. */}
        {services.isPending || staff.isPending ? (
          <Skeleton lines={4} label="Loading the settings" />
        ) : (
          <SettingsForm connection={connection} />
        )}
        <div className="calendar-connection__footer">
          <p className="muted calendar-connection__hint">
            {connection.kind === 'local' ? (
              <>
                Add, move or delete its appointments at{' '}
                <a href="/dev/calendar" target="_blank" rel="noreferrer">
                  /dev/calendar
                </a>
                .{' '}
              </>
            ) : null}
            {connection.failures > 1
              ? `Next try at ${clockTime(connection.nextSyncAt)}; Check now reads it at once.`
              : connection.liveUpdates
                ? 'Its changes arrive at once (and it is read every minute in case one is missed).'
                : 'It is read every minute; Check now reads it at once.'}
          </p>
          <div className="calendar-connection__actions">
            <Button variant="secondary" busy={sync.isPending} onClick={checkNow}>
              Check now
            </Button>
            <Button variant="danger" onClick={() => setConfirming(true)}>
              Disconnect
            </Button>
          </div>
        </div>
      </Card>
      {confirming ? (
        <ConfirmDialog
          title={`Disconnect ${connection.name}?`}
          action="Disconnect"
          busy={disconnect.isPending}
          failure="Could not disconnect the calendar."
          onConfirm={async () => {
            const answer = await disconnect.mutateAsync(connection.id);
            toast.success(answer.message ?? calendarMessages.disconnected);
            setConfirming(false);
          }}
          onClose={() => setConfirming(false)}
        >
          <p>
            Cancellations there will no longer open slots, and its sign-in is deleted. Openings already sent
            stay as they are.
          </p>
        </ConfirmDialog>
      ) : null}
    </li>
  );
}
