import { type FormEvent, useId, useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useConfig } from '../../../lib/config.ts';

import {
  type PhoneNumberState,
  usePhoneNumber,
  useRequestPhoneNumber,
  useVerifyPhoneNumber,
} from '../api/phone-number.ts';
import './phone-number-section.css';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { TEXT_NUMBER_ANCHOR } from '../../../lib/links.ts';
import { displayPhone } from '../../../lib/phone-display.ts';

const statusBadges = {
  verified: { tone: 'success', label: 'Verified' },
  pending: { tone: 'warning', label: 'Pending' },
  failed: { tone: 'danger', label: 'Failed' },
} as const;

/**
 * SPEC §2 Billing tab, phone-number section: the dedicated text number with its status
 * (verified, pending, failed) and the request and verify buttons (issue 5).
 */
export function PhoneNumberSection() {
  const phoneNumber = usePhoneNumber();
  const cardRef = useRef<HTMLDivElement>(null);
  const { hash } = useLocation();
  // "Get your text number" links here (issue 27): the card comes into view with the focus on it.
  useEffect(() => {
    if (hash !== `#${TEXT_NUMBER_ANCHOR}`) return;
    cardRef.current?.scrollIntoView?.({ block: 'start' });
    cardRef.current?.focus({ preventScroll: true });
  }, [hash]);
  return (
    <Card
      ref={cardRef}
      id={TEXT_NUMBER_ANCHOR}
      tabIndex={-1}
      aria-labelledby="text-number-title"
      className="phone-number"
      data-testid="phone-number-section"
    >
      <header className="phone-number__header">
        <h2 id="text-number-title" className="card__title">
          Text Number
        </h2>
        {phoneNumber.data?.status ? (
          <Badge tone={statusBadges[phoneNumber.data.status].tone}>
            {statusBadges[phoneNumber.data.status].label}
          </Badge>
        ) : null}
      </header>
      {phoneNumber.isPending ? (
        <Skeleton lines={2} label="Loading your text number" />
      ) : phoneNumber.isError ? (
        <div className="stack">
          <Alert>{screenErrorMessage(phoneNumber.error, 'Failed to load your text number.')}</Alert>
          <Button variant="secondary" onClick={() => phoneNumber.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <PhoneNumberBody state={phoneNumber.data} />
      )}
    </Card>
  );
}

function PhoneNumberBody({ state }: { state: PhoneNumberState }) {
  const toast = useToast();
  const verify = useVerifyPhoneNumber();
  const [actionError, setActionError] = useState<string | null>(null);

  const onVerify = async () => {
    setActionError(null);
    try {
      const answer = await verify.mutateAsync();
      if (answer.data.status === 'verified') toast.success(answer.message ?? 'Your text number is verified.');
      else if (answer.data.status === 'pending')
        toast.info(answer.message ?? 'Verification is still in progress.');
    } catch (error) {
      setActionError(screenErrorMessage(error, 'Could not verify your text number.'));
    }
  };

  return (
    <div className="stack phone-number__body">
      {state.number ? (
        <p className="phone-number__number" data-testid="text-number">
          {displayPhone(state.number)}
        </p>
      ) : null}

      {state.status === 'verified' ? (
        <p className="card__subtitle">Texts to your waitlist go out from this number.</p>
      ) : (
        <Alert tone="info">
          No text goes out until your number is verified: confirmations, reminders and cancellation alerts
          wait until then.
        </Alert>
      )}

      {state.status === 'pending' ? (
        <p className="card__subtitle">
          Carriers are checking the number for business texting. Press Verify to check again.
        </p>
      ) : null}
      {state.status === 'failed' ? (
        <Alert title="Verification failed">
          {state.error ?? 'The number could not be verified.'} You can verify again or request another number.
        </Alert>
      ) : null}
      {actionError ? <Alert>{actionError}</Alert> : null}

      {state.status === 'pending' || state.status === 'failed' ? (
        <Button onClick={onVerify} busy={verify.isPending}>
          Verify
        </Button>
      ) : null}
      {state.status === 'verified' || state.status === 'pending' ? null : (
        <RequestNumberForm hasNumber={Boolean(state.number)} />
      )}
    </div>
  );
}

function RequestNumberForm({ hasNumber }: { hasNumber: boolean }) {
  const toast = useToast();
  const request = useRequestPhoneNumber();
  const config = useConfig();
  const [areaCode, setAreaCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const formId = useId();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const code = areaCode.trim();
    if (code && !/^[2-9]\d{2}$/.test(code)) {
      setError('An area code is 3 digits, like 212.');
      return;
    }
    setError(null);
    try {
      const answer = await request.mutateAsync({
        areaCode: code || undefined,
        verifyAtOnce: config.data?.localPhone === true,
      });
      toast.success(answer.message ?? 'Number requested. Verify it to start texting.');
    } catch (failure) {
      setError(screenErrorMessage(failure, 'Could not request a text number.'));
    }
  };

  return (
    <form className="phone-number__request" onSubmit={onSubmit} noValidate aria-labelledby={formId}>
      <p id={formId} className="card__subtitle">
        {hasNumber ? 'Or get a different number.' : 'Get a dedicated number your customers can text back.'}
      </p>
      <TextField
        label="Area code"
        labelNote="(optional)"
        inputMode="numeric"
        maxLength={3}
        placeholder="212"
        value={areaCode}
        onChange={(event) => setAreaCode(event.target.value.replace(/\D/g, ''))}
        error={error ?? undefined}
      />
      <Button type="submit" variant={hasNumber ? 'secondary' : 'primary'} busy={request.isPending}>
        Request a number
      </Button>
    </form>
  );
}
