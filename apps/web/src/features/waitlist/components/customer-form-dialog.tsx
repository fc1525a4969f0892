import {
  type ConsentMethod,
  type Customer,
  consentLabels,
  consentMethods,
  createCustomerBody,
  customerLanguages,
  languageLabels,
  normalizePhone,
  waitlistMessages,
} from '@waitlist/contract';
import { Controller } from 'react-hook-form';
import type { z } from 'zod';
import { FormDialog, useFormKit } from '../../../components/ui/form-kit.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { TextareaField } from '../../../components/ui/textarea-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { displayPhone } from '../../../lib/phone-display.ts';
import { useSaveCustomer } from '../api/save-customer.ts';
import { CustomerOfferFields } from './customer-offer-fields.tsx';
import { TimePreferencesFields } from './time-preferences-fields.tsx';
import './customer-form-dialog.css';

type CustomerFormInput = z.input<typeof createCustomerBody>;

function valuesFrom(customer: Customer | undefined): CustomerFormInput {
  return {
    name: customer?.name ?? '',
    phone: customer ? displayPhone(customer.phone) : '',
    notes: customer?.notes ?? '',
    // An empty choice until the owner records how the customer agreed: consent is never assumed.
    consentMethod: (customer?.consentMethod ?? '') as ConsentMethod,
    preferences: customer?.preferences ?? [],
    serviceId: customer?.serviceId ?? null,
    staffId: customer?.staffId ?? null,
    timeZone: customer?.timeZone ?? null,
    language: customer?.language ?? 'en',
    vip: customer?.vip ?? false,
    pinned: customer?.pinned ?? false,
  };
}

/** The fields the server may name in its refusal: a duplicate phone lands under "Mobile phone". */
const customerServerFields = [
  'name',
  'phone',
  'notes',
  'consentMethod',
  'serviceId',
  'staffId',
  'timeZone',
  'language',
] as const;

type CustomerFormDialogProps = {
  /** Absent when adding. */
  customer?: Customer;
  onClose: () => void;
};

/**
 * Add or edit one customer: name, phone in any format, notes, consent, what they wait for (service, staff),
 * VIP and pin, their time zone, optional time preferences.
 */
export function CustomerFormDialog({ customer, onClose }: CustomerFormDialogProps) {
  const toast = useToast();
  const save = useSaveCustomer();
  const { control, submit, setValue, register, field, errorOf, formState, kit } = useFormKit(
    createCustomerBody,
    {
      defaultValues: valuesFrom(customer),
      serverFields: customerServerFields,
      failure: customer ? 'Could not save the customer.' : 'Could not add the customer.',
    },
  );

  const onSubmit = submit(async (values) => {
    const answer = await save.mutateAsync({
      id: customer?.id,
      input: {
        ...values,
        notes: values.notes?.trim() ?? '',
        preferences: values.preferences ?? [],
        serviceId: values.serviceId ?? null,
        staffId: values.staffId ?? null,
        timeZone: values.timeZone ?? null,
        language: values.language ?? 'en',
        vip: values.vip ?? false,
        pinned: values.pinned ?? false,
      },
    });
    toast.success(
      answer.message ?? (customer ? waitlistMessages.customerUpdated : waitlistMessages.customerAdded),
    );
    onClose();
  });

  return (
    <FormDialog
      kit={kit}
      title={customer ? `Edit ${customer.name}` : 'Add a customer'}
      formId={customer ? `edit-customer-${customer.id}` : 'add-customer'}
      label={customer ? 'Edit customer' : 'Add a customer'}
      submitLabel={customer ? 'Save changes' : 'Add to waitlist'}
      onClose={onClose}
      onSubmit={onSubmit}
    >
      <TextField label="Name" autoComplete="off" {...field('name')} />
      <Controller
        control={control}
        name="phone"
        render={({ field }) => (
          <TextField
            label="Mobile phone"
            type="tel"
            inputMode="tel"
            autoComplete="off"
            placeholder="(555) 123-4567"
            hint="Any format works; numbers outside the US start with +."
            {...errorOf('phone')}
            name={field.name}
            ref={field.ref}
            value={field.value}
            onChange={field.onChange}
            onBlur={() => {
              // Show the number the way it will be texted, once the owner is done typing it.
              const e164 = normalizePhone(field.value);
              if (e164) setValue('phone', displayPhone(e164));
              field.onBlur();
            }}
          />
        )}
      />
      <SelectField
        label="How did they agree to texts?"
        hint="Only text customers who asked to be on your waitlist."
        {...field('consentMethod')}
      >
        <option value="">Choose one…</option>
        {consentMethods.map((method) => (
          <option key={method} value={method}>
            {consentLabels[method]}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Language"
        hint="The language the customer reads: English or Spanish."
        {...field('language')}
      >
        {customerLanguages.map((language) => (
          <option key={language} value={language}>
            {languageLabels[language]}
          </option>
        ))}
      </SelectField>
      <TextareaField label="Notes" labelNote="(optional)" rows={2} {...field('notes')} />
      <CustomerOfferFields field={field} register={register} />

      <TimePreferencesFields control={control} field={field} errors={formState.errors.preferences} />
    </FormDialog>
  );
}
