import { type ReactNode, useState } from 'react';
import { screenErrorMessage } from '../../lib/api-client.ts';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import { Modal } from './modal.tsx';

/**
 * An action asked once: "Keep" (focused, so Enter never changes anything) or the action. The action's
 * failure shows inside the dialog, which stays open; on success the caller closes it.
 */
export function ConfirmDialog({
  title,
  action,
  keep = 'Keep',
  danger = true,
  busy,
  failure,
  onConfirm,
  onClose,
  children,
}: {
  title: string;
  /** The button's word: "Delete", "Remove". */
  action: string;
  /** The word of the button that changes nothing. */
  keep?: string;
  /** A destructive action (red); false for one that only moves things on. */
  danger?: boolean;
  busy: boolean;
  /** Said when the action fails without a message of its own. */
  failure: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
  children: ReactNode;
}) {
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setError(null);
    try {
      await onConfirm();
    } catch (problem) {
      setError(screenErrorMessage(problem, failure));
    }
  };
  return (
    <Modal
      title={title}
      tone={danger ? 'danger' : undefined}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} autoFocus>
            {keep}
          </Button>
          <Button variant={danger ? 'danger' : undefined} onClick={confirm} busy={busy}>
            {action}
          </Button>
        </>
      }
    >
      {error ? <Alert>{error}</Alert> : null}
      {children}
    </Modal>
  );
}
