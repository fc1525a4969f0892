import {
  type CalendarConnectBody,
  type CalendarKind,
  calendarConnectBody,
  calendarKindLabels,
  calendarMessages,
} from '@waitlist/contract';
import { useState } from 'react';
import type { Path, UseFormSetError } from 'react-hook-form';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { applyServerFieldErrors } from '../../../lib/form-errors.ts';
import { useZodForm } from '../../../lib/zod-form.ts';
import { oauthStartUrl, useConnectCalendar } from '../api/calendar.ts';

/** Google and Microsoft connect by signing in there (OAuth): a full-page trip, not a form. */
const oauthKinds = ['google', 'microsoft'] as const;
type FormKind = Exclude<CalendarKind, (typeof oauthKinds)[number]>;
const isFormKind = (kind: CalendarKind): kind is FormKind =>
  !(oauthKinds as readonly string[]).includes(kind);

const [caldavSchema, icsSchema] = calendarConnectBody.options;

/** Sends the connection and puts the server's words under the fields (or above the button). */
function useConnect<T extends CalendarConnectBody>(setError: UseFormSetError<T>, fields: readonly Path<T>[]) {
  const toast = useToast();
  const connect = useConnectCalendar();
  const [formError, setFormError] = useState<string | null>(null);
  const submit = async (body: T) => {
    setFormError(null);
    try {
      const answer = await connect.mutateAsync(body);
      toast.success(answer.message ?? calendarMessages.connected);
    } catch (error) {
      if (!applyServerFieldErrors(error, setError, fields)) {
        setFormError(screenErrorMessage(error, calendarMessages.unreachable));
      }
    }
  };
  return { submit, formError, busy: connect.isPending };
}

function CaldavForm() {
  const form = useZodForm(caldavSchema, {
    defaultValues: { kind: 'caldav', url: '', username: '', password: '' },
  });
  const connect = useConnect<{ kind: 'caldav'; url: string; username: string; password: string }>(
    form.setError,
    ['url', 'username', 'password'],
  );
  return (
    <form
      className="form"
      onSubmit={form.handleSubmit(connect.submit)}
      noValidate
      aria-label="Connect CalDAV"
    >
      <TextField
        label="Calendar address"
        type="url"
        inputMode="url"
        autoComplete="url"
        placeholder="https://caldav.icloud.com"
        {...form.field('url')}
      />
      <TextField label="Username" autoComplete="username" {...form.field('username')} />
      <TextField
        label="App-specific password"
        type="password"
        autoComplete="current-password"
        hint="iCloud: make one at appleid.apple.com → Sign-In and Security → App-Specific Passwords."
        {...form.field('password')}
      />
      <ConnectActions error={connect.formError} busy={connect.busy} />
    </form>
  );
}

/** The form's refusal, if any, and its Connect button. */
function ConnectActions({ error, busy }: { error: string | null | undefined; busy: boolean }) {
  return (
    <>
      {error ? <Alert reveal>{error}</Alert> : null}
      <div className="form__actions">
        <Button type="submit" busy={busy}>
          Connect
        </Button>
      </div>
    </>
  );
}

function IcsForm() {
  const form = useZodForm(icsSchema, { defaultValues: { kind: 'ics', url: '' } });
  const connect = useConnect<{ kind: 'ics'; url: string }>(form.setError, ['url']);
  return (
    <form
      className="form"
      onSubmit={form.handleSubmit(connect.submit)}
      noValidate
      aria-label="Connect a feed"
    >
      <TextField
        label="Calendar link (ICS)"
        type="url"
        inputMode="url"
        placeholder="https://…/calendar.ics"
        hint="Read-only: claimed slots are not booked back into it, you book them by hand."
        {...form.field('url')}
      />
      <ConnectActions error={connect.formError} busy={connect.busy} />
    </form>
  );
}

function LocalForm() {
  const connect = useConnect<{ kind: 'local' }>(() => {}, []);
  return (
    <div className="stack">
      <p className="muted">
        A calendar kept on this machine, to try the whole flow offline. Add and delete its events at{' '}
        <a href="/dev/calendar" target="_blank" rel="noreferrer">
          /dev/calendar
        </a>
        .
      </p>
      {connect.formError ? <Alert reveal>{connect.formError}</Alert> : null}
      <div>
        <Button busy={connect.busy} onClick={() => connect.submit({ kind: 'local' })}>
          Use the local calendar
        </Button>
      </div>
    </div>
  );
}

/**
 * "Connect Google Calendar": the server gives the consent screen's address for this owner (a POST carries
 * the session), then the browser goes there; Google sends it back to the Calendar tab.
 */
function OAuthButton({ kind }: { kind: (typeof oauthKinds)[number] }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const go = async () => {
    setBusy(true);
    setError(null);
    try {
      window.location.assign(await oauthStartUrl(kind));
    } catch (problem) {
      setError(screenErrorMessage(problem, 'Could not start connecting that calendar'));
      setBusy(false);
    }
  };
  return (
    <div className="stack">
      <Button variant="secondary" busy={busy} onClick={go}>
        Connect {calendarKindLabels[kind]}
      </Button>
      {error ? <Alert reveal>{error}</Alert> : null}
    </div>
  );
}

/** "Connect a calendar": the kinds this server offers, each asking only what it needs. */
export function ConnectCalendarForm({
  available,
  another = false,
}: {
  available: readonly CalendarKind[];
  /** A calendar is connected already: this one is another. */
  another?: boolean;
}) {
  const formKinds = available.filter(isFormKind);
  const [kind, setKind] = useState<FormKind | undefined>(formKinds[0]);
  const chosen = kind && formKinds.includes(kind) ? kind : formKinds[0];
  return (
    <section className="stack calendar-connect" aria-labelledby="connect-calendar">
      <h2 id="connect-calendar" className="calendar-connect__title">
        {another ? 'Connect another calendar' : 'Connect a calendar'}
      </h2>
      {oauthKinds.some((oauth) => available.includes(oauth)) ? (
        <div className="calendar-connect__oauth">
          {oauthKinds
            .filter((oauth) => available.includes(oauth))
            .map((oauth) => (
              <OAuthButton key={oauth} kind={oauth} />
            ))}
        </div>
      ) : null}
      {chosen ? (
        <>
          {formKinds.length > 1 ? (
            <SelectField
              label="Kind of calendar"
              value={chosen}
              onChange={(event) => setKind(event.target.value as FormKind)}
            >
              {formKinds.map((option) => (
                <option key={option} value={option}>
                  {calendarKindLabels[option]}
                </option>
              ))}
            </SelectField>
          ) : null}
          {chosen === 'caldav' ? <CaldavForm /> : chosen === 'ics' ? <IcsForm /> : <LocalForm />}
        </>
      ) : null}
    </section>
  );
}
