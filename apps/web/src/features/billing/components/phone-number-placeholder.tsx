import { Card } from '../../../components/ui/card.tsx';

/**
 * PLACEHOLDER for the Billing tab's Phone-number section (SPEC §2: statuses verified, pending,
 * failed with verify and request buttons). It is built by the waitlist issue, which replaces this
 * card; until then it only says so, with no buttons that would do nothing.
 */
export function PhoneNumberPlaceholder() {
  return (
    <Card className="phone-placeholder" data-testid="phone-number-section">
      <h2 className="card__title">Text Number</h2>
      <p className="card__subtitle">Your dedicated text number is coming with the waitlist.</p>
    </Card>
  );
}
