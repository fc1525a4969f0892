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
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import type { z } from 'zod';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { TextareaField } from '../../../components/ui/textarea-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { applyServerFieldErrors } from '../../../lib/form-errors.ts';
import { displayPhone } from '../../../lib/phone-display.ts';
import { useZodForm } from '../../../lib/zod-form.ts';
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
  const [formError, setFormError] = useState<string | null>(null);
  const { control, handleSubmit, setError, setValue, register, field, formState } = useZodForm(
    createCustomerBody,
    {
      defaultValues: valuesFrom(customer),
    },
  );
  const formId = customer ? `edit-customer-${customer.id}` : 'add-customer';

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
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
    } catch (error) {
      applyServerFieldErrors(error, setError, [
        'name',
        'phone',
        'notes',
        'consentMethod',
        'serviceId',
        'staffId',
        'timeZone',
        'language',
      ]);
      setFormError(
        screenErrorMessage(error, customer ? 'Could not save the customer.' : 'Could not add the customer.'),
      );
    }
  });

  return (
    <Modal
      title={customer ? `Edit ${customer.name}` : 'Add a customer'}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={formId} busy={formState.isSubmitting}>
            {customer ? 'Save changes' : 'Add to waitlist'}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        className="form"
        onSubmit={onSubmit}
        noValidate
        aria-label={customer ? 'Edit customer' : 'Add a customer'}
      >
        {formError ? <Alert>{formError}</Alert> : null}
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
              error={formState.errors.phone?.message}
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
      </form>
    </Modal>
  );
}
