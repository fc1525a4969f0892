import { zodResolver } from '@hookform/resolvers/zod';
import { type FieldValues, type UseFormProps, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { bindFields } from './form-fields.ts';

/**
 * A form checked by a contract schema: its values are typed from the schema, and `field(name)` binds an
 * input to it (see bindFields). The login screen keeps useForm with its lazy resolver, so it loads no zod.
 */
export function useZodForm<S extends z.ZodType<FieldValues, FieldValues>>(
  schema: S,
  options: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, 'resolver'>,
) {
  const form = useForm<z.input<S>, unknown, z.output<S>>({ ...options, resolver: zodResolver(schema) });
  return { ...form, field: bindFields(form.register, form.formState.errors) };
}
