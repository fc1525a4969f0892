import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { Field } from './field.tsx';

export type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  error?: string;
  hint?: ReactNode;
  /** Shown after the label, e.g. "(optional)". */
  labelNote?: string;
  ref?: Ref<HTMLInputElement>;
};

export function TextField({
  label,
  error,
  hint,
  labelNote,
  id,
  className,
  ref,
  ...inputProps
}: TextFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} labelNote={labelNote} id={id} className={className}>
      {(control) => (
        <input
          ref={ref}
          id={control.id}
          className="field__input"
          aria-invalid={control['aria-invalid']}
          aria-describedby={control['aria-describedby']}
          {...inputProps}
        />
      )}
    </Field>
  );
}
