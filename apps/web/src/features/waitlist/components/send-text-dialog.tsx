import {
  type Customer,
  customerWords,
  type MessageTemplateKey,
  renderTemplate,
  templateLabels,
  textAsSent,
  waitlistMessages,
} from '@waitlist/contract';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextareaField } from '../../../components/ui/textarea-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/auth.tsx';
import { textNumberLink } from '../../../lib/links.ts';
import { useSendText } from '../api/conversation.ts';
import { useMessageTemplates } from '../api/message-templates.ts';
import { SegmentMeter } from './segment-meter.tsx';

/** The line the server adds to a customer's first text (issue 5). */
/** The line the server adds to a customer's first text (the contract's catalogue of customer words). */
export const OPT_OUT_LINE = customerWords().texts.optOutFooter;
/** The texts an owner sends to one customer; the others go out on their own with alerts. */
const oneCustomerTemplates: MessageTemplateKey[] = ['confirmation', 'reminder'];
const placeholderPattern = /\{(name|business|time)\}/;

/** Send one customer a text: pick a template, edit it, see its segments and carrier warnings. */
export function SendTextDialog({ customer, onClose }: { customer: Customer; onClose: () => void }) {
  const user = useCurrentUser();
  const toast = useToast();
  const templates = useMessageTemplates();
  const send = useSendText();
  const [templateKey, setTemplateKey] = useState<MessageTemplateKey | ''>('');
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const formId = useId();
  const meterId = useId();

  const numberVerified = user.plivoNumberStatus === 'verified';
  const blocked = customer.optedOut || !numberVerified;
  // The server adds the opt-out line to a first text unless it already names STOP: the contract's textAsSent.
  const withFooter = textAsSent(body.trim(), { firstText: !customer.firstTextSent });
  const addsOptOut = withFooter !== body.trim();
  const sentText = addsOptOut && body.trim() ? withFooter : body;
  const unfilled = placeholderPattern.exec(body)?.[0];

  const pickTemplate = (key: MessageTemplateKey | '') => {
    setTemplateKey(key);
    const template = templates.data?.find((candidate) => candidate.key === key);
    if (template) {
      setBody(
        renderTemplate(template.body, { name: customer.name, business: user.businessName || undefined }),
      );
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!body.trim()) {
      setError('Write a message first.');
      return;
    }
    if (unfilled) {
      setError(`Replace ${unfilled} with the real value before sending.`);
      return;
    }
    setError(null);
    try {
      const answer = await send.mutateAsync({ customerId: customer.id, body: body.trim() });
      toast.success(answer.message || waitlistMessages.textQueued);
      onClose();
    } catch (failure) {
      setError(screenErrorMessage(failure, 'Could not send the text.'));
    }
  };

  return (
    <Modal
      title={`Text ${customer.name}`}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={formId} busy={send.isPending} disabled={blocked}>
            Send text
          </Button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={onSubmit} noValidate aria-label={`Text ${customer.name}`}>
        {customer.optedOut ? (
          <Alert tone="warning" title="Opted out">
            {customer.name} replied STOP, so no text can go to them until they text START.
          </Alert>
        ) : null}
        {!numberVerified ? (
          <Alert tone="warning" title="Your text number is not verified">
            No text goes out until your dedicated number is verified.{' '}
            <Link to={textNumberLink}>Set up your number</Link>
          </Alert>
        ) : null}
        {error ? <Alert reveal>{error}</Alert> : null}
        <SelectField
          label="Template"
          value={templateKey}
          onChange={(event) => pickTemplate(event.target.value as MessageTemplateKey | '')}
          hint={
            templates.isError
              ? 'Templates could not be loaded; write your own message.'
              : templates.isPending
                ? 'Loading templates…'
                : undefined
          }
        >
          <option value="">Write my own</option>
          {oneCustomerTemplates.map((key) => (
            <option
              key={key}
              value={key}
              disabled={!templates.data?.some((template) => template.key === key)}
            >
              {templateLabels[key]}
            </option>
          ))}
        </SelectField>
        <TextareaField
          label="Message"
          rows={5}
          value={body}
          onChange={(event) => setBody(event.target.value)}
          aria-describedby={meterId}
          hint={unfilled ? `Replace ${unfilled} before sending, e.g. "Tue Mar 3 at 2:30 PM".` : undefined}
        />
        <SegmentMeter id={meterId} text={sentText} />
        {addsOptOut ? (
          <p className="field__hint" data-testid="opt-out-notice">
            This is the first text {customer.name} gets from you, so it ends with “{OPT_OUT_LINE}”. The count
            above includes it.
          </p>
        ) : null}
      </form>
    </Modal>
  );
}
