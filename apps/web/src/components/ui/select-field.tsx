import type { ReactNode, Ref, SelectHTMLAttributes } from 'react';
import { Field, splitFieldProps } from './field.tsx';

type SelectFieldProps = SelectHTMLAttributes<HTMLSelectElement> & {
  label: string;
  error?: string;
  hint?: ReactNode;
  labelNote?: string;
  ref?: Ref<HTMLSelectElement>;
};

export function SelectField({ ref, children, ...props }: SelectFieldProps) {
  const [field, selectProps] = splitFieldProps(props);
  return (
    <Field {...field}>
      {(control) => (
        <select ref={ref} className="field__input field__select" {...control} {...selectProps}>
          {children}
        </select>
      )}
    </Field>
  );
}
