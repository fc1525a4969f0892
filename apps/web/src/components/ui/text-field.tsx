import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { Field, splitFieldProps } from './field.tsx';

export type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  error?: string;
  hint?: ReactNode;
  /** Shown after the label, e.g. "(optional)". */
  labelNote?: string;
  ref?: Ref<HTMLInputElement>;
};

export function TextField({ ref, ...props }: TextFieldProps) {
  const [field, inputProps] = splitFieldProps(props);
  return (
    <Field {...field}>
      {(control) => <input ref={ref} className="field__input" {...control} {...inputProps} />}
    </Field>
  );
}
