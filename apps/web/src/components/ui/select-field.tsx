import { type ReactNode, type Ref, type SelectHTMLAttributes, useId } from 'react';
import './field.css';

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
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${className ? ` ${className}` : ''}`}>
      <label className="field__label" htmlFor={inputId}>
        {label}
        {labelNote ? <span className="field__label-note"> {labelNote}</span> : null}
      </label>
      <select
        ref={ref}
        id={inputId}
        className="field__input field__select"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...rest}
      >
        {children}
      </select>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
