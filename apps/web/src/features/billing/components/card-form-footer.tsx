import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';

/** The end of both card forms: why the card was refused, Save Card, and Cancel where the form can be closed. */
export function CardFormFooter({
  cardError,
  submitting,
  ready = true,
  onCancel,
}: {
  cardError: string | null;
  submitting: boolean;
  /** False while the card input cannot take a card yet (Stripe.js still loading). */
  ready?: boolean;
  onCancel: (() => void) | undefined;
}) {
  return (
    <>
      {cardError ? (
        <Alert tone="error" title="Card not saved">
          {cardError}
        </Alert>
      ) : null}
      <div className="form__actions">
        <Button type="submit" busy={submitting} disabled={!ready}>
          Save Card
        </Button>
        {onCancel ? (
          <Button variant="ghost" disabled={submitting} onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </>
  );
}
