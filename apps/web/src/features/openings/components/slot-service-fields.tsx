import type { Service } from '@waitlist/contract';
import { useEffect } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { Link } from 'react-router';
import { ChoiceSelect, SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import type { BoundField } from '../../../lib/form-fields.ts';
import { minutesLabel, useServiceChoices } from '../../../lib/services-and-staff.ts';
import { type OpenSlotFormValues, OTHER_SERVICE } from './open-slot-schema.ts';

const durations = [15, 30, 45, 60, 75, 90, 120, 180];

type SlotServiceFieldsProps = {
  form: Pick<UseFormReturn<OpenSlotFormValues>, 'watch' | 'setValue' | 'getValues'>;
  field: (name: keyof OpenSlotFormValues) => BoundField;
};

/**
 * What the slot is for: one of the business's services (which fills in its length and price) or a name typed
 * in, and with whom when there are staff (issue 26). A business with neither keeps the simple form.
 */
export function SlotServiceFields({ form, field }: SlotServiceFieldsProps) {
  const { services, staff } = useServiceChoices();
  const { setValue, getValues, watch } = form;
  const serviceId = watch('serviceId');
  const durationValue = watch('durationMinutes');
  const duration = Number(durationValue);

  const choose = (service: Service | undefined) => {
    setValue('serviceId', service?.id ?? '');
    if (!service) return;
    setValue('service', service.name, { shouldValidate: false });
    setValue('durationMinutes', String(service.durationMinutes));
    setValue('price', service.priceCents !== null ? (service.priceCents / 100).toFixed(2) : '');
  };

  // Issue 39: no service is chosen for the owner. The first alphabetically (or the most used) would be wrong
  // on the day a different one is cancelled, and a wrong service texts the wrong customers without a word;
  // an empty choice costs one tap and cannot be wrong silently. A name typed before the list arrived stays.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the list first arrives
  useEffect(() => {
    if (services.length > 0 && !getValues('serviceId') && getValues('service'))
      setValue('serviceId', OTHER_SERVICE);
  }, [services.length]);

  const serviceField = field('serviceId');
  const lengths =
    durations.includes(duration) || !duration ? durations : [...durations, duration].sort((a, b) => a - b);
  return (
    <>
      {services.length > 0 ? (
        <SelectField
          label="Service"
          {...serviceField}
          onChange={(event) => {
            const picked = services.find((service) => service.id === event.target.value);
            if (picked) return choose(picked);
            setValue('serviceId', event.target.value);
            setValue('service', '');
          }}
        >
          <option value="" disabled>
            Choose a service
          </option>
          {services.map((service) => (
            <option key={service.id} value={service.id}>
              {service.name} ({minutesLabel(service.durationMinutes)})
            </option>
          ))}
          <option value={OTHER_SERVICE}>Something else (type it)</option>
        </SelectField>
      ) : null}
      {services.length > 0 && serviceId !== OTHER_SERVICE ? null : (
        <TextField
          label={services.length > 0 ? 'Service name' : 'Service'}
          placeholder="Haircut with Ana"
          hint={
            services.length > 0 ? undefined : (
              <>
                <Link to="/services">Add services</Link> so each opening is offered only to customers it fits.
              </>
            )
          }
          {...field('service')}
        />
      )}
      {staff.length > 0 ? (
        <ChoiceSelect label="With" none="Anyone" choices={staff} {...field('staffId')} />
      ) : null}
      <div className="form__row form__row--2">
        {/* Controlled: a service's own length (100 min) joins the options in the same render that picks it. */}
        <SelectField label="Duration" {...field('durationMinutes')} value={durationValue}>
          {lengths.map((minutes) => (
            <option key={minutes} value={String(minutes)}>
              {minutesLabel(minutes)}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Price ($)"
          labelNote="(optional)"
          inputMode="decimal"
          placeholder="45.00"
          hint="Counts toward revenue recovered when the slot fills."
          {...field('price')}
        />
      </div>
    </>
  );
}
