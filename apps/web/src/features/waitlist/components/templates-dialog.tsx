import {
  customerWords,
  type MessageTemplate,
  renderTemplate,
  TEMPLATE_SAMPLE_VALUES,
  templateCost,
  templateLabels,
} from '@waitlist/contract';
import { type FormEvent, useId, useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { TextareaField } from '../../../components/ui/textarea-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/auth.tsx';
import { useMessageTemplates, useUpdateMessageTemplate } from '../api/message-templates.ts';
import { SegmentMeter } from './segment-meter.tsx';
import './templates-dialog.css';

/**
 * Edit the texts the app sends: confirmation, reminder, the alert itself and its answers. Each counts its
 * segments on what will really be sent (issue 15): your business name, a long name and service, the
 * first-text opt-out line; the alert also shows what one alert costs across the customers waiting now.
 */
export function TemplatesDialog({
  onClose,
  readOnly,
  waitingCustomers,
}: {
  onClose: () => void;
  readOnly: boolean;
  /** Customers who would get the next alert (waiting, not opted out), when known. */
  waitingCustomers?: number;
}) {
  const templates = useMessageTemplates();
  return (
    <Modal title="Message templates" onClose={onClose}>
      <div className="stack">
        <p className="field__hint">
          Placeholders: {'{name}'} the customer’s first name, {'{business}'} your business, {'{time}'} the
          appointment or opening.
        </p>
        {templates.isPending ? (
          <Skeleton lines={4} label="Loading templates" />
        ) : templates.isError ? (
          <Alert>{screenErrorMessage(templates.error, 'Failed to load your message templates.')}</Alert>
        ) : (
          templates.data.map((template) => (
            <TemplateEditor
              key={template.key}
              template={template}
              readOnly={readOnly}
              waitingCustomers={template.key === 'cancellation_alert' ? waitingCustomers : undefined}
            />
          ))
        )}
      </div>
    </Modal>
  );
}

function TemplateEditor({
  template,
  readOnly,
  waitingCustomers,
}: {
  template: MessageTemplate;
  readOnly: boolean;
  waitingCustomers?: number;
}) {
  const user = useCurrentUser();
  const toast = useToast();
  const update = useUpdateMessageTemplate();
  const [body, setBody] = useState(template.body);
  const [error, setError] = useState<string | null>(null);
  const meterId = useId();
  const cost = templateCost(
    renderTemplate(body, {
      ...TEMPLATE_SAMPLE_VALUES,
      business: user.businessName || customerWords().texts.unnamedBusiness,
    }),
    { waitingCustomers },
  );

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!body.trim()) {
      setError('Template is required');
      return;
    }
    setError(null);
    try {
      const answer = await update.mutateAsync({ key: template.key, body: body.trim() });
      toast.success(answer.message ?? 'Template saved');
    } catch (failure) {
      setError(screenErrorMessage(failure, 'Could not save the template.'));
    }
  };

  return (
    <form
      className="template-editor"
      onSubmit={onSubmit}
      noValidate
      aria-label={templateLabels[template.key]}
    >
      <TextareaField
        label={templateLabels[template.key]}
        rows={3}
        value={body}
        onChange={(event) => setBody(event.target.value)}
        readOnly={readOnly}
        error={error ?? undefined}
        aria-describedby={meterId}
      />
      <SegmentMeter id={meterId} text={cost.text} />
      {cost.alertTexts !== null ? (
        <p className="field__hint" data-testid="alert-cost">
          One alert ≈ {cost.alertTexts} billed text segment{cost.alertTexts === 1 ? '' : 's'} ({cost.segments}{' '}
          segment{cost.segments === 1 ? '' : 's'} × {waitingCustomers} waiting customer
          {waitingCustomers === 1 ? '' : 's'}).
        </p>
      ) : null}
      <div className="form__actions">
        <Button
          type="submit"
          variant="secondary"
          busy={update.isPending}
          disabled={readOnly || body === template.body}
        >
          Save {templateLabels[template.key].toLowerCase()}
        </Button>
      </div>
    </form>
  );
}
