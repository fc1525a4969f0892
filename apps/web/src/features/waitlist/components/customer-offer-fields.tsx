import type { createCustomerBody } from '@waitlist/contract';
import { useMemo } from 'react';
import type { UseFormRegister } from 'react-hook-form';
import type { z } from 'zod';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';
import { ChoiceSelect, SelectField } from '../../../components/ui/select-field.tsx';
import type { BoundField } from '../../../lib/form-fields.ts';
import { useServiceChoices } from '../../../lib/services-and-staff.ts';
import { guessTimeZone, timeZoneChoices, timeZoneLabel } from '../../../lib/time-zones.ts';

type CustomerFormInput = z.input<typeof createCustomerBody>;
type OfferFieldName = 'serviceId' | 'staffId' | 'timeZone';

/** An empty choice ("Any service", "No preference", "Same as the business") is stored as null. */
export const emptyAsNull = { setValueAs: (value: unknown) => (value === '' ? null : value) };

/**
 * What the customer waits for and how offers treat them (issue 26): the service and staff selects appear only
 * when the business has services or staff, so a one-person business keeps the short form.
 */
export function CustomerOfferFields({
  field,
  register,
}: {
  field: (name: OfferFieldName, options: typeof emptyAsNull) => BoundField;
  register: UseFormRegister<CustomerFormInput>;
}) {
  const { services, staff } = useServiceChoices();
  const zones = useMemo(() => timeZoneChoices(guessTimeZone()), []);
  return (
    <>
      {services.length > 0 || staff.length > 0 ? (
        <div className="form__row form__row--2">
          {services.length > 0 ? (
            <ChoiceSelect
              label="Service"
              none="Any service"
              choices={services}
              {...field('serviceId', emptyAsNull)}
            />
          ) : null}
          {staff.length > 0 ? (
            <ChoiceSelect
              label="Staff"
              none="No preference"
              choices={staff}
              {...field('staffId', emptyAsNull)}
            />
          ) : null}
        </div>
      ) : null}
      <fieldset className="offer-flags">
        <legend className="field__label">Offers</legend>
        <CheckboxField label="VIP" {...register('vip')} />
        <CheckboxField label="Offer first (pin)" {...register('pinned')} />
      </fieldset>
      <SelectField
        label="Time zone"
        labelNote="(optional)"
        hint="Offers reach them only in daytime hours of this zone."
        {...field('timeZone', emptyAsNull)}
      >
        <option value="">Same as the business</option>
        {zones.map((zone) => (
          <option key={zone} value={zone}>
            {timeZoneLabel(zone)}
          </option>
        ))}
      </SelectField>
    </>
  );
}
