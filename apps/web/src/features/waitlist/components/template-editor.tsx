import {
  type Locale,
  languageLabels,
  type MessageTemplate,
  type MessageTemplateKey,
  templateLabels,
} from '@waitlist/contract';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { TextareaField } from '../../../components/ui/textarea-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/auth.tsx';
import { useUpdateMessageTemplate } from '../api/message-templates.ts';
import { SegmentMeter } from './segment-meter.tsx';
import { languageCost } from './template-cost.ts';
import { TemplateCostNotes } from './template-cost-notes.tsx';

const languages: Locale[] = ['en', 'es'];

/**
 * One template with an English | Español switch (issue 28). Both versions stay mounted, so an edit in one
 * language is kept while the owner looks at the other; each counts its own segments and cost.
 */
export function TemplateEditor({
  templateKey,
  versions,
  readOnly,
  waitingCustomers,
  plain,
}: {
  templateKey: MessageTemplateKey;
  versions: Record<Locale, MessageTemplate>;
  readOnly: boolean;
  waitingCustomers?: number;
  /** The business writes Spanish texts in plain letters. */
  plain: boolean;
}) {
  const [language, setLanguage] = useState<Locale>('en');
  const baseId = useId();
  const label = templateLabels[templateKey];
  return (
    <section className="template-editor" aria-label={label}>
      <div className="template-editor__tabs" role="tablist" aria-label={`${label} language`}>
        {languages.map((tab) => (
          <button
            key={tab}
            type="button"
            role="tab"
            id={`${baseId}-${tab}-tab`}
            aria-selected={language === tab}
            aria-controls={`${baseId}-${tab}`}
            className="pill-button template-editor__tab"
            onClick={() => setLanguage(tab)}
          >
            {languageLabels[tab]}
          </button>
        ))}
      </div>
      {languages.map((tab) => (
        <div
          key={tab}
          role="tabpanel"
          id={`${baseId}-${tab}`}
          aria-labelledby={`${baseId}-${tab}-tab`}
          hidden={language !== tab}
        >
          <LanguageVersion
            template={versions[tab]}
            language={tab}
            readOnly={readOnly}
            waitingCustomers={waitingCustomers}
            plain={plain}
          />
        </div>
      ))}
    </section>
  );
}

function LanguageVersion({
  template,
  language,
  readOnly,
  waitingCustomers,
  plain,
}: {
  template: MessageTemplate;
  language: Locale;
  readOnly: boolean;
  waitingCustomers?: number;
  plain: boolean;
}) {
  const user = useCurrentUser();
  const toast = useToast();
  const update = useUpdateMessageTemplate();
  const [body, setBody] = useState(template.body);
  const [error, setError] = useState<string | null>(null);
  const meterId = useId();
  const cost = languageCost(body, { language, businessName: user.businessName, plain, waitingCustomers });
  const label = templateLabels[template.key];
  const languageName = language === 'es' ? ' (Español)' : '';

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!body.trim()) {
      setError('Template is required');
      return;
    }
    setError(null);
    try {
      const answer = await update.mutateAsync({ key: template.key, body: body.trim(), language });
      toast.success(answer.message ?? 'Template saved');
    } catch (failure) {
      setError(screenErrorMessage(failure, 'Could not save the template.'));
    }
  };

  return (
    <form
      className="template-editor__form"
      onSubmit={onSubmit}
      noValidate
      aria-label={`${label}${languageName}`}
    >
      <TextareaField
        label={`${label}${languageName}`}
        lang={language}
        rows={3}
        value={body}
        onChange={(event) => setBody(event.target.value)}
        readOnly={readOnly}
        error={error ?? undefined}
        aria-describedby={meterId}
      />
      <SegmentMeter id={meterId} text={cost.sent.text} />
      <TemplateCostNotes cost={cost} waitingCustomers={waitingCustomers} />
      <div className="form__actions">
        <Button
          type="submit"
          variant="secondary"
          busy={update.isPending}
          disabled={readOnly || body === template.body}
        >
          Save {label.toLowerCase()}
          {languageName}
        </Button>
      </div>
    </form>
  );
}
