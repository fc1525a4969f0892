import { joinBody } from '@waitlist/contract';
import { type FormEvent, lazy, Suspense, useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { isApiError, screenErrorMessage } from '../../../lib/api-client.ts';
import { useJoin } from '../api/join.ts';
import { JoinChoices } from './join-choices.tsx';
import { useJoinWords } from './join-language.tsx';

// The proof-of-work widget and its code load only when the server asks for a check (issue 24).
const PersonCheck = lazy(() =>
  import('./person-check.tsx').then((module) => ({ default: module.PersonCheck })),
);

type Errors = Partial<Record<'name' | 'phone' | 'consent' | 'altcha', string>>;

/** The first message the shared schema gives each field, in the page's language. */
function fieldErrors(body: unknown, translate: (message: string) => string): Errors | null {
  const parsed = joinBody.safeParse(body);
  if (parsed.success) return null;
  const errors: Errors = {};
  for (const issue of parsed.error.issues) errors[issue.path[0] as keyof Errors] ??= translate(issue.message);
  return errors;
}

/**
 * The form's state and its sending: the fields are checked with the contract's schema, then the check that a
 * person is there when it was asked for (by the page, or by a refused sign-up). A proof is taken once, so a
 * sign-up that sent one gets a new widget (a fresh challenge) afterwards.
 */
function useJoinForm(slug: string, proofRequired: boolean, onJoined: (message: string) => void) {
  const { t, locale, translate } = useJoinWords();
  const join = useJoin(slug);
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [consent, setConsent] = useState(false);
  const [website, setWebsite] = useState('');
  const [serviceId, setServiceId] = useState('');
  const [staffId, setStaffId] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [checkAsked, setCheckAsked] = useState(false);
  const [proof, setProof] = useState<string | null>(null);
  const [checkRound, setCheckRound] = useState(0);
  const checkNeeded = checkAsked || proofRequired;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const invalid = fieldErrors({ name, phone, consent, website }, translate);
    if (invalid || (checkNeeded && !proof)) {
      setErrors(invalid ?? { altcha: t('join.proofRequired') });
      return;
    }
    setErrors({});
    const sentProof = proof ?? undefined;
    try {
      const answer = await join.mutateAsync({
        name,
        phone,
        consent: true,
        website,
        altcha: sentProof,
        // The request, its text and the customer's texts after in the page's language (issue 28).
        language: locale,
        ...(serviceId ? { serviceId } : {}),
        ...(staffId ? { staffId } : {}),
      });
      onJoined(answer.message);
    } catch (failure) {
      const refused = isApiError(failure) ? (failure.errors as Errors | undefined) : undefined;
      if (refused)
        setErrors(
          Object.fromEntries(
            Object.entries(refused).map(([key, message]) => [key, translate(message ?? '')]),
          ),
        );
      if (refused?.altcha) setCheckAsked(true);
      setProblem(translate(screenErrorMessage(failure, t('join.page.sendFailed'))));
    } finally {
      if (sentProof) {
        setProof(null);
        setCheckRound((round) => round + 1);
      }
    }
  };

  const onSolved = (payload: string | null) => {
    setProof(payload);
    if (payload) setErrors(({ altcha: _, ...rest }) => rest);
  };

  return {
    fields: { name, phone, consent, website, serviceId, staffId },
    set: {
      name: setName,
      phone: setPhone,
      consent: setConsent,
      website: setWebsite,
      serviceId: setServiceId,
      staffId: setStaffId,
    },
    errors,
    problem,
    checkNeeded,
    checkRound,
    onSolved,
    onSubmit,
    busy: join.isPending,
  };
}

/** A honeypot: hidden from people and screen readers; bots fill it. Its label is for bots, not words. */
function Honeypot({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <div className="join__trap" aria-hidden="true">
      <label>
        Website
        <input
          tabIndex={-1}
          autoComplete="off"
          name="website"
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      </label>
    </div>
  );
}

/** The join form: name, mobile number, the service and staff when the business lists them, the consent box and, when asked for, the check that a person is there. */
export function JoinForm({
  slug,
  business,
  consentText,
  proofRequired,
  services = [],
  staff = [],
  onJoined,
}: {
  slug: string;
  business: string;
  /** The server's consent wording (English); another language's comes from the catalogue. */
  consentText: string;
  proofRequired: boolean;
  /** The business's services and staff to choose from (issue 26); empty lists show no choice. */
  services?: { id: string; name: string }[];
  staff?: { id: string; name: string }[];
  onJoined: (message: string) => void;
}) {
  // Every word in the page's language (issue 28), which is also the language sent with the request.
  const { t, locale } = useJoinWords();
  const form = useJoinForm(slug, proofRequired, onJoined);
  const { fields, set, errors } = form;
  return (
    <form
      className="stack"
      onSubmit={form.onSubmit}
      noValidate
      aria-label={t('join.page.formLabel', { business })}
    >
      <p className="muted">{t('join.page.lead')}</p>
      {form.problem ? <Alert>{form.problem}</Alert> : null}
      <TextField
        label={t('join.page.nameLabel')}
        autoComplete="name"
        value={fields.name}
        onChange={(event) => set.name(event.target.value)}
        error={errors.name}
      />
      <TextField
        label={t('join.page.phoneLabel')}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        value={fields.phone}
        onChange={(event) => set.phone(event.target.value)}
        error={errors.phone}
      />
      <JoinChoices
        services={services}
        staff={staff}
        serviceId={fields.serviceId}
        staffId={fields.staffId}
        onService={set.serviceId}
        onStaff={set.staffId}
      />
      <Honeypot value={fields.website} onChange={set.website} />
      <CheckboxField
        label={locale === 'en' ? consentText : t('join.consent', { business })}
        checked={fields.consent}
        onChange={(event) => set.consent(event.target.checked)}
        error={errors.consent}
      />
      {form.checkNeeded ? (
        <Suspense
          fallback={
            <p className="muted" role="status">
              {t('join.personCheck.loading')}
            </p>
          }
        >
          <PersonCheck key={form.checkRound} slug={slug} error={errors.altcha} onSolved={form.onSolved} />
        </Suspense>
      ) : null}
      <Button type="submit" block busy={form.busy}>
        {t('join.page.submit')}
      </Button>
    </form>
  );
}
