import { type InputHTMLAttributes, type ReactNode, type Ref, useId } from 'react';
import { FieldError } from './field.tsx';

type CheckboxFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
  label: ReactNode;
  error?: string | undefined;
  /** Reads the error out when it appears (see FieldOwnProps). */
  announceError?: boolean | undefined;
  /** Extra content after the label, outside it (e.g. a "Read the terms" button). */
  after?: ReactNode;
  ref?: Ref<HTMLInputElement>;
};

export function CheckboxField({
  label,
  error,
  announceError,
  after,
  id,
  ref,
  ...inputProps
}: CheckboxFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const errorId = error ? `${inputId}-error` : undefined;
  return (
    <div className="field field--checkbox">
      <div className="field__checkbox-row">
        <input
          ref={ref}
          id={inputId}
          type="checkbox"
          className="field__checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={errorId}
          {...inputProps}
        />
        <label htmlFor={inputId} className="field__checkbox-label">
          {label}
        </label>
        {after}
      </div>
      <FieldError id={errorId} error={error} announce={announceError} />
    </div>
  );
}
