import {
  customerWords,
  type Locale,
  type MessageTemplate,
  type MessageTemplateKey,
  messageTemplateKeys,
} from '@waitlist/contract';
import { Alert } from '../../../components/ui/alert.tsx';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import {
  useMessageTemplates,
  usePlainSpanishLetters,
  useSetPlainSpanishLetters,
} from '../api/message-templates.ts';
import { TemplateEditor } from './template-editor.tsx';
import './templates-dialog.css';

/**
 * Edit the texts the app sends: confirmation, reminder, the alert itself and its answers, each in English and
 * Spanish (issue 28). Each counts its segments on what will really be sent (issue 15): your business name, a
 * long name and service, the first-text opt-out line; the alert also shows what one alert costs across the
 * customers waiting now.
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
  const plain = usePlainSpanishLetters();
  return (
    <Modal title="Message templates" onClose={onClose}>
      <div className="stack">
        <p className="field__hint">
          Placeholders: {'{name}'} the customer’s first name, {'{business}'} your business, {'{time}'} the
          appointment or opening. Each text has an English and a Spanish version; customers get the one in
          their language.
        </p>
        <PlainLettersCheckbox readOnly={readOnly} checked={plain.data ?? false} disabled={!plain.isSuccess} />
        {templates.isPending ? (
          <Skeleton lines={4} label="Loading templates" />
        ) : templates.isError ? (
          <Alert>{screenErrorMessage(templates.error, 'Failed to load your message templates.')}</Alert>
        ) : (
          messageTemplateKeys.map((key) => (
            <TemplateEditor
              key={key}
              templateKey={key}
              versions={versionsOf(templates.data, key)}
              readOnly={readOnly}
              waitingCustomers={key === 'cancellation_alert' ? waitingCustomers : undefined}
              plain={plain.data ?? false}
            />
          ))
        )}
      </div>
    </Modal>
  );
}

/** A template's English and Spanish versions; one the server did not send is the catalogue's default. */
function versionsOf(templates: MessageTemplate[], key: MessageTemplateKey): Record<Locale, MessageTemplate> {
  const version = (language: Locale): MessageTemplate =>
    templates.find((template) => template.key === key && (template.language ?? 'en') === language) ?? {
      key,
      language,
      body: customerWords(language).templates[key],
      isDefault: true,
    };
  return { en: version('en'), es: version('es') };
}

function PlainLettersCheckbox({
  readOnly,
  checked,
  disabled,
}: {
  readOnly: boolean;
  checked: boolean;
  disabled: boolean;
}) {
  const setPlain = useSetPlainSpanishLetters();
  const toast = useToast();
  return (
    <CheckboxField
      label="Write Spanish texts with plain letters (á → a) to keep them in one encoding"
      checked={checked}
      disabled={readOnly || disabled}
      onChange={async (event) => {
        try {
          const answer = await setPlain.mutateAsync(event.target.checked);
          toast.success(answer.message);
        } catch (failure) {
          toast.error(screenErrorMessage(failure, 'Could not save the Spanish letters setting.'));
        }
      }}
    />
  );
}
