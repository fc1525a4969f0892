import type { UseQueryResult } from '@tanstack/react-query';
import { type BillingConfig, billingMessages, type PaymentMethod } from '@waitlist/contract';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useDeletePaymentMethod } from '../api/delete-payment-method.ts';
import { sendBillingUpdateNotification } from '../api/send-notifications.ts';
import { useSetDefaultPaymentMethod } from '../api/set-default-payment-method.ts';
import { brandName, cardExpiry, cardLabel, isCardExpired } from '../utils/cards.ts';
import { AddCardForm } from './add-card-form.tsx';
import { useNotifyOwner } from './use-notify-owner.ts';
import './payment-methods-card.css';

type PaymentMethodsCardProps = {
  paymentMethods: UseQueryResult<PaymentMethod[]>;
  billing: BillingConfig | undefined;
  /** False when payments are not set up: no card can be added. */
  billingConfigured: boolean;
  /** A live paid subscription renews on the default card; deleting the last card deserves a warning. */
  hasPaidPlan: boolean;
};

/** SPEC §2 Billing tab: the cards on file (brand, masked number, expiry, default), and adding one. */
export function PaymentMethodsCard({
  paymentMethods,
  billing,
  billingConfigured,
  hasPaidPlan,
}: PaymentMethodsCardProps) {
  const toast = useToast();
  const notifyOwner = useNotifyOwner();
  const setDefault = useSetDefaultPaymentMethod();
  const [adding, setAdding] = useState(false);
  const [cardToDelete, setCardToDelete] = useState<PaymentMethod | null>(null);
  const cards = paymentMethods.data;
  const now = new Date();

  const onSetDefault = async (card: PaymentMethod) => {
    try {
      await setDefault.mutateAsync(card.id);
    } catch (error) {
      toast.error(screenErrorMessage(error, billingMessages.setDefaultPaymentMethodFailed), {
        title: billingMessages.setDefaultFailedTitle,
      });
      return;
    }
    toast.success(billingMessages.defaultPaymentMethodUpdated);
    await notifyOwner(sendBillingUpdateNotification);
  };

  const formOpen = billingConfigured && (adding || cards?.length === 0);

  return (
    <Card>
      <header className="split-header split-header--top payment-methods__header">
        <div>
          <h2 className="card__title">Payment Methods</h2>
          <p className="card__subtitle">Your default card pays for your plan.</p>
        </div>
        {billingConfigured && cards && cards.length > 0 && !adding ? (
          <Button variant="secondary" onClick={() => setAdding(true)}>
            Add a Card
          </Button>
        ) : null}
      </header>

      {paymentMethods.isPending ? (
        <Skeleton label="Loading your cards" lines={2} />
      ) : paymentMethods.isError ? (
        <Alert tone="error">
          {screenErrorMessage(paymentMethods.error, billingMessages.fetchPaymentMethodsFailed)}{' '}
          <Button variant="link" onClick={() => paymentMethods.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : cards && cards.length > 0 ? (
        <ul className="payment-methods">
          {cards.map((card) => {
            const expired = isCardExpired(card, now);
            const label = cardLabel(card);
            const settingThis = setDefault.isPending && setDefault.variables === card.id;
            return (
              <li key={card.id} className="payment-method" aria-label={label}>
                <span
                  className={`payment-method__brand payment-method__brand--${card.brand.toLowerCase()}`}
                  aria-hidden="true"
                >
                  {brandMark(card.brand)}
                </span>
                <div className="payment-method__details">
                  <p className="payment-method__number">
                    <span>
                      {brandName(card.brand)}{' '}
                      <span className="payment-method__digits">•••• {card.last4}</span>
                    </span>
                    {card.isDefault ? <Badge tone="primary">Default</Badge> : null}
                    {expired ? <Badge tone="danger">Expired</Badge> : null}
                  </p>
                  <p className="payment-method__expiry">Expires {cardExpiry(card)}</p>
                </div>
                <div className="payment-method__actions">
                  {card.isDefault ? null : (
                    <Button
                      variant="secondary"
                      busy={settingThis}
                      disabled={setDefault.isPending}
                      onClick={() => onSetDefault(card)}
                      aria-label={`Set as default: ${label}`}
                    >
                      Set as default
                    </Button>
                  )}
                  <Button
                    variant="ghost"
                    className="payment-method__delete"
                    onClick={() => setCardToDelete(card)}
                    aria-label={`Delete ${label}`}
                  >
                    Delete
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="empty-note">No cards on file yet. Add one to choose a paid plan.</p>
      )}

      {formOpen ? (
        <div className="payment-methods__form">
          <AddCardForm
            billing={billing}
            onAdded={() => setAdding(false)}
            onCancel={cards && cards.length > 0 ? () => setAdding(false) : undefined}
          />
        </div>
      ) : null}

      {cardToDelete ? (
        <DeleteCardDialog
          card={cardToDelete}
          otherCards={(cards ?? []).filter((card) => card.id !== cardToDelete.id)}
          hasPaidPlan={hasPaidPlan}
          onClose={() => setCardToDelete(null)}
        />
      ) : null}
    </Card>
  );
}

const brandMarks: Record<string, string> = { visa: 'VISA', mastercard: 'MC', amex: 'AMEX', discover: 'DISC' };
const brandMark = (brand: string) => brandMarks[brand.toLowerCase()] ?? 'CARD';

function DeleteCardDialog({
  card,
  otherCards,
  hasPaidPlan,
  onClose,
}: {
  card: PaymentMethod;
  otherCards: PaymentMethod[];
  hasPaidPlan: boolean;
  onClose: () => void;
}) {
  const toast = useToast();
  const notifyOwner = useNotifyOwner();
  const deletePaymentMethod = useDeletePaymentMethod();
  const pending = deletePaymentMethod.isPending;

  const onConfirm = async () => {
    try {
      await deletePaymentMethod.mutateAsync(card.id);
    } catch (error) {
      toast.error(screenErrorMessage(error, billingMessages.deletePaymentMethodFailed), {
        title: billingMessages.deleteFailedTitle,
      });
      return;
    }
    toast.success(billingMessages.paymentMethodDeleted);
    onClose();
    await notifyOwner(sendBillingUpdateNotification);
  };

  return (
    <Modal
      title="Delete Card"
      tone="danger"
      onClose={pending ? () => {} : onClose}
      footer={
        <>
          <Button variant="secondary" autoFocus disabled={pending} onClick={onClose}>
            Keep Card
          </Button>
          <Button variant="danger" busy={pending} onClick={onConfirm}>
            Delete Card
          </Button>
        </>
      }
    >
      <p>
        Remove <strong>{cardLabel(card)}</strong> (expires {cardExpiry(card)}) from your account?
      </p>
      {card.isDefault && otherCards.length > 0 ? (
        <p>Your most recently added other card becomes the default.</p>
      ) : null}
      {card.isDefault && otherCards.length === 0 && hasPaidPlan ? (
        <Alert tone="warning">
          This is your only card. Add another before your next billing date, or the payment fails.
        </Alert>
      ) : null}
    </Modal>
  );
}
