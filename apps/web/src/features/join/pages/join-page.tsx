import { joinBody, joinMessages } from '@waitlist/contract';
import { type FormEvent, lazy, Suspense, useState } from 'react';
import { useParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { isApiError, screenErrorMessage } from '../../../lib/api-client.ts';
import { useJoin, useJoinPage } from '../api/join.ts';
import '../components/join.css';

// The proof-of-work widget and its code load only when the server asks for a check (issue 24).
const PersonCheck = lazy(() =>
  import('../components/person-check.tsx').then((module) => ({ default: module.PersonCheck })),
);

type Errors = Partial<Record<'name' | 'phone' | 'consent' | 'altcha', string>>;

/**
 * /join/:slug (issue 15): a customer joins a business's waitlist. Name, mobile number and the consent box;
 * a confirmation text follows, and only their YES puts them on the list (double opt-in). The page loads no
 * account code and shows nothing about other customers.
 */
export function JoinPage() {
  const { slug = '' } = useParams();
  const page = useJoinPage(slug);
  const join = useJoin(slug);
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [consent, setConsent] = useState(false);
  const [website, setWebsite] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // Asked for by the page (this connection sent a few sign-ups already) or by a refused sign-up.
  const [checkAsked, setCheckAsked] = useState(false);
  const [proof, setProof] = useState<string | null>(null);
  // A new widget (a fresh challenge) after each sign-up that used one: a proof is taken once.
  const [checkRound, setCheckRound] = useState(0);

  if (page.isPending) {
    return (
      <div className="join">
        <Card className="join__card">
          <Skeleton lines={5} label="Loading" />
        </Card>
      </div>
    );
  }
  if (page.isError) {
    const missing = isApiError(page.error) && page.error.status === 404;
    return (
      <div className="join">
        <Card className="join__card stack">
          <h1 className="join__title">{missing ? 'Link not found' : 'Something went wrong'}</h1>
          <p className="muted">{screenErrorMessage(page.error, 'This page could not be loaded.')}</p>
          {missing ? null : (
            <Button variant="secondary" onClick={() => page.refetch()}>
              Try again
            </Button>
          )}
        </Card>
      </div>
    );
  }
  const business = page.data.businessName;
  const checkNeeded = checkAsked || page.data.proofRequired;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const body = { name, phone, consent, website };
    const parsed = joinBody.safeParse(body);
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof Errors;
        next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    if (checkNeeded && !proof) {
      setErrors({ altcha: joinMessages.proofRequired });
      return;
    }
    setErrors({});
    const sentProof = proof ?? undefined;
    try {
      const answer = await join.mutateAsync({ name, phone, consent: true, website, altcha: sentProof });
      setDone(answer.message);
    } catch (failure) {
      const fieldErrors = isApiError(failure) ? (failure.errors as Errors | undefined) : undefined;
      if (fieldErrors) setErrors(fieldErrors);
      if (fieldErrors?.altcha) setCheckAsked(true);
      setProblem(screenErrorMessage(failure, 'Your request could not be sent. Please try again.'));
    } finally {
      if (sentProof) {
        setProof(null);
        setCheckRound((round) => round + 1);
      }
    }
  };

  return (
    <div className="join">
      <Card className="join__card stack">
        <p className="join__eyebrow">Waitlist</p>
        <h1 className="join__title">{business}</h1>
        {done ? (
          <div className="stack" role="status">
            <h2 className="card__title">Almost there</h2>
            <p>{done}</p>
            <p className="muted">Didn’t get a text within a minute? Check the number and try again.</p>
          </div>
        ) : page.data.full ? (
          <Alert tone="warning" title="The waitlist is full">
            The waitlist at {business} is full right now. Please try again later, or call the business.
          </Alert>
        ) : (
          <form
            className="stack"
            onSubmit={onSubmit}
            noValidate
            aria-label={`Join the waitlist at ${business}`}
          >
            <p className="muted">
              Get a text when an earlier appointment opens up. The first to reply YES gets the slot.
            </p>
            {problem ? <Alert>{problem}</Alert> : null}
            <TextField
              label="Your name"
              autoComplete="name"
              value={name}
              onChange={(event) => setName(event.target.value)}
              error={errors.name}
            />
            <TextField
              label="Mobile number"
              type="tel"
              inputMode="tel"
              autoComplete="tel"
              value={phone}
              onChange={(event) => setPhone(event.target.value)}
              error={errors.phone}
            />
            {/* A honeypot: hidden from people and screen readers; bots fill it. */}
            <div className="join__trap" aria-hidden="true">
              <label>
                Website
                <input
                  tabIndex={-1}
                  autoComplete="off"
                  name="website"
                  value={website}
                  onChange={(event) => setWebsite(event.target.value)}
                />
              </label>
            </div>
            <CheckboxField
              label={page.data.consentText}
              checked={consent}
              onChange={(event) => setConsent(event.target.checked)}
              error={errors.consent}
            />
            {checkNeeded ? (
              <Suspense
                fallback={
                  <p className="muted" role="status">
                    {joinMessages.personCheck.loading}
                  </p>
                }
              >
                <PersonCheck
                  key={checkRound}
                  slug={slug}
                  error={errors.altcha}
                  onSolved={(payload) => {
                    setProof(payload);
                    if (payload) setErrors(({ altcha: _, ...rest }) => rest);
                  }}
                />
              </Suspense>
            ) : null}
            <Button type="submit" block busy={join.isPending}>
              Join the waitlist
            </Button>
          </form>
        )}
      </Card>
      <p className="join__footer">Waitlist &amp; Text</p>
    </div>
  );
}
