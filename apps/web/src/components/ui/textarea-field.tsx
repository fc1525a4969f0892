import type { ReactNode, Ref, TextareaHTMLAttributes } from 'react';
import { Field } from './field.tsx';

type TextareaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: string;
  error?: string;
  hint?: ReactNode;
  labelNote?: string;
  ref?: Ref<HTMLTextAreaElement>;
};

export function TextareaField({
  label,
  error,
  hint,
  labelNote,
  id,
  className,
  ref,
  'aria-describedby': describedBy,
  ...rest
}: TextareaFieldProps) {
  return (
    <Field
      label={label}
      error={error}
      hint={hint}
      labelNote={labelNote}
      id={id}
      className={className}
      describedBy={describedBy}
      hintAs="div"
    >
      {(control) => (
        <textarea
          ref={ref}
          id={control.id}
          className="field__input field__textarea"
          aria-invalid={control['aria-invalid']}
          {...rest}
          aria-describedby={control['aria-describedby']}
        />
      )}
    </Field>
  );
}
