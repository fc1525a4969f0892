import {
  type FormEventHandler,
  type ReactNode,
  type RefObject,
  useCallback,
  useEffect,
  useRef,
  useState,
} from 'react';
import type { FieldValues, Path, UseFormProps } from 'react-hook-form';
import type { z } from 'zod';
import { screenErrorMessage } from '../../lib/api-client.ts';
import { applyServerFieldErrors } from '../../lib/form-errors.ts';
import { bindFields, errorOf } from '../../lib/form-fields.ts';
import { useZodForm } from '../../lib/zod-form.ts';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import { Modal } from './modal.tsx';
import './form-kit.css';

/**
 * The one way a form shows what went wrong (issue 39): each error under its own field, the first of them
 * scrolled into view and focused, a message that names no field beside the submit button, and the submit
 * button busy while the form is sent. The service, staff and customer dialogs all use it.
 */

/** What the kit's form and actions need to know about the form they belong to. */
export type FormKitState = {
  formRef: RefObject<HTMLFormElement | null>;
  /** The server's message when it named none of the form's fields (a lost connection, a plan limit). */
  formError: string | null;
  pending: boolean;
};

type FormKitOptions<S extends z.ZodType<FieldValues, FieldValues>> = {
  defaultValues: UseFormProps<z.input<S>, unknown, z.output<S>>['defaultValues'];
  /** The fields the server may name in its `errors` (a duplicate phone names `phone`). */
  serverFields: readonly Path<z.input<S>>[];
  /** Shown beside the submit button when the server says nothing the screen can show. */
  failure: string;
};

const prefersReducedMotion = () =>
  typeof window.matchMedia === 'function' &&
  Boolean(window.matchMedia('(prefers-reduced-motion: reduce)')?.matches);

/**
 * Brings the form's first field with an error (in the order the owner reads them) into view and puts the
 * cursor in it, so a tap that failed never looks like a tap that did nothing, however far the form scrolled.
 */
export function revealFirstError(form: HTMLElement | null) {
  if (!form) return;
  const invalid = form.querySelector<HTMLElement>('[aria-invalid="true"]');
  const target = invalid ?? form.querySelector<HTMLElement>('.field__error');
  if (!target) return;
  target.scrollIntoView?.({ block: 'center', behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
  invalid?.focus({ preventScroll: true });
}

/**
 * A form checked by a contract schema (useZodForm), with `submit(send)`: it checks the values, runs `send`
 * with them, and on a refusal puts the server's per-field messages under their fields, or else one message
 * beside the submit button. Either way the first field in error comes into view.
 */
export function useFormKit<S extends z.ZodType<FieldValues, FieldValues>>(
  schema: S,
  { defaultValues, serverFields, failure }: FormKitOptions<S>,
) {
  // The kit focuses the first error itself, in reading order and after scrolling to it.
  const form = useZodForm(schema, { defaultValues, shouldFocusError: false });
  const formRef = useRef<HTMLFormElement | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [revealRequests, setRevealRequests] = useState(0);
  const requestReveal = useCallback(() => setRevealRequests((count) => count + 1), []);

  // After the errors are drawn: aria-invalid marks the fields to look for.
  useEffect(() => {
    if (revealRequests > 0) revealFirstError(formRef.current);
  }, [revealRequests]);

  const { handleSubmit, setError, register, formState } = form;
  const submit = (send: (values: z.output<S>) => Promise<unknown>): FormEventHandler<HTMLFormElement> =>
    handleSubmit(async (values) => {
      setFormError(null);
      try {
        await send(values);
      } catch (error) {
        const named = applyServerFieldErrors(error, setError, serverFields);
        setFormError(named ? null : screenErrorMessage(error, failure));
        if (named) requestReveal();
      }
    }, requestReveal);

  const kit: FormKitState = { formRef, formError, pending: formState.isSubmitting };
  return {
    ...form,
    field: bindFields(register, formState.errors, { announceServerErrors: true }),
    /** For a field drawn by hand (a Controller): its error, read out when the server sent it. */
    errorOf: (name: Parameters<typeof register>[0]) => errorOf(formState.errors, name, true),
    submit,
    kit,
  };
}

type KitFormProps = {
  kit: FormKitState;
  id: string;
  /** The form's accessible name. */
  label: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
};

/** The form element: the browser's own checks off (the schema's words are shown instead). */
export function KitForm({ kit, id, label, onSubmit, children }: KitFormProps) {
  return (
    <form ref={kit.formRef} id={id} className="form" onSubmit={onSubmit} noValidate aria-label={label}>
      {children}
    </form>
  );
}

type FormActionsProps = {
  kit: FormKitState;
  /** The form the submit button sends, when the buttons stand outside it (a dialog's footer). */
  formId: string;
  submitLabel: string;
  onCancel?: () => void;
};

/** Cancel and submit, with the message that names no field right above them, where the owner just tapped. */
export function FormActions({ kit, formId, submitLabel, onCancel }: FormActionsProps) {
  return (
    <>
      {kit.formError ? (
        <div className="form-actions__error">
          <Alert>{kit.formError}</Alert>
        </div>
      ) : null}
      {onCancel ? (
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      ) : null}
      <Button type="submit" form={formId} busy={kit.pending}>
        {submitLabel}
      </Button>
    </>
  );
}

type FormDialogProps = Omit<KitFormProps, 'id'> & {
  title: string;
  formId: string;
  submitLabel: string;
  onClose: () => void;
};

/** A dialog holding one kit form: the fields in its body, Cancel and submit in its footer. */
export function FormDialog({
  kit,
  title,
  formId,
  label,
  submitLabel,
  onClose,
  onSubmit,
  children,
}: FormDialogProps) {
  return (
    <Modal
      title={title}
      onClose={onClose}
      footer={<FormActions kit={kit} formId={formId} submitLabel={submitLabel} onCancel={onClose} />}
    >
      <KitForm kit={kit} id={formId} label={label} onSubmit={onSubmit}>
        {children}
      </KitForm>
    </Modal>
  );
}
