import type { Ref, SelectHTMLAttributes } from 'react';
import { Field, type FieldComponentProps, splitFieldProps } from './field.tsx';

type SelectFieldProps = SelectHTMLAttributes<HTMLSelectElement> &
  FieldComponentProps & {
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

/**
 * A select over named choices (a business's services or staff), its first option the "none" choice ("Any
 * service", "No preference") with the empty value.
 */
export function ChoiceSelect({
  choices,
  none,
  ...props
}: Omit<SelectFieldProps, 'children'> & { choices: readonly { id: string; name: string }[]; none: string }) {
  return (
    <SelectField {...props}>
      <option value="">{none}</option>
      {choices.map((choice) => (
        <option key={choice.id} value={choice.id}>
          {choice.name}
        </option>
      ))}
    </SelectField>
  );
}
