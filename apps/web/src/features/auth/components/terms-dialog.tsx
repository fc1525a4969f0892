import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';

/** A plain-language summary; the lead replaces it with the legal text when there is one. */
export function TermsDialog({ onClose }: { onClose: () => void }) {
  return (
    <Modal
      title="Terms of Service"
      onClose={onClose}
      footer={
        <Button variant="primary" onClick={onClose}>
          Close
        </Button>
      }
    >
      <p>
        Waitlist &amp; Text lets your business keep a waitlist and text customers when a slot opens. By
        creating an account you agree to:
      </p>
      <ul className="terms-list">
        <li>text only customers who asked to join your waitlist, and honour STOP replies at once;</li>
        <li>keep your login details private and your business details accurate;</li>
        <li>pay for your plan after the 7-day free trial, or cancel before it ends;</li>
        <li>not use the service for spam, marketing blasts or anything unlawful.</li>
      </ul>
      <p>We keep your data only to run the service and delete it when you delete your account.</p>
    </Modal>
  );
}
