import { type ReactNode, useId } from 'react';
import './field.css';

/** The props every control inside a Field gets: its id, and the ARIA links to its hint and error. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** What a field takes besides its control's own attributes. */
export interface FieldOwnProps {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  /** Shown after the label, e.g. "(optional)". */
  labelNote?: string | undefined;
  id?: string | undefined;
  className?: string | undefined;
  /**
   * Reads the error out when it appears: for a message that arrives after the tap (the server's "already on
   * your waitlist"), which the owner would otherwise not hear. Errors found before sending are met by focus.
   */
  announceError?: boolean | undefined;
}

/** The wrapper props a field component (TextField, SelectField…) takes besides its control's attributes. */
export type FieldComponentProps = Omit<FieldOwnProps, 'id' | 'className'>;

/** Splits a field component's props into the wrapper's and the control's. */
export function splitFieldProps<P extends FieldOwnProps>(
  props: P,
): [FieldOwnProps, Omit<P, keyof FieldOwnProps>] {
  const { label, error, hint, labelNote, id, className, announceError, ...control } = props;
  return [{ label, error, hint, labelNote, id, className, announceError }, control];
}

export interface FieldProps extends FieldOwnProps {
  /** Another element that also describes the control (e.g. a counter). */
  describedBy?: string | undefined;
  /** The hint's element: a paragraph, or a div when the hint holds blocks. */
  hintAs?: 'p' | 'div';
  children: (control: FieldControlProps) => ReactNode;
}

/** The one field wrapper of the UI kit: label, control, hint and error, linked for assistive technology. */
export function Field({
  label,
  error,
  hint,
  labelNote,
  id,
  className,
  announceError,
  describedBy,
  hintAs: Hint = 'p',
  children,
}: FieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const ariaDescribedBy = [hintId, errorId, describedBy].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${className ? ` ${className}` : ''}`}>
      <label className="field__label" htmlFor={inputId}>
        {label}
        {labelNote ? <span className="field__label-note"> {labelNote}</span> : null}
      </label>
      {children({
        id: inputId,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': ariaDescribedBy,
      })}
      {hint ? (
        <Hint id={hintId} className="field__hint">
          {hint}
        </Hint>
      ) : null}
      <FieldError id={errorId} error={error} announce={announceError} />
    </div>
  );
}

/** A field's error line, right under its control (also used by the checkbox field). */
export function FieldError({
  id,
  error,
  announce,
}: {
  id: string | undefined;
  error: string | undefined;
  announce?: boolean | undefined;
}) {
  return error ? (
    <p id={id} className="field__error" role={announce ? 'alert' : undefined}>
      {error}
    </p>
  ) : null;
}
