import type { ReactNode, Ref, SelectHTMLAttributes } from 'react';
import { Field } from './field.tsx';

type SelectFieldProps = SelectHTMLAttributes<HTMLSelectElement> & {
  label: string;
  error?: string;
  hint?: ReactNode;
  labelNote?: string;
  ref?: Ref<HTMLSelectElement>;
};

export function SelectField({
  label,
  error,
  hint,
  labelNote,
  id,
  className,
  ref,
  children,
  ...rest
}: SelectFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} labelNote={labelNote} id={id} className={className}>
      {(control) => (
        <select
          ref={ref}
          id={control.id}
          className="field__input field__select"
          aria-invalid={control['aria-invalid']}
          aria-describedby={control['aria-describedby']}
          {...rest}
        >
          {children}
        </select>
      )}
    </Field>
  );
}
