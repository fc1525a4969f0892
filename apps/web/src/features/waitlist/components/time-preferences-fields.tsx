import type { createCustomerBody } from '@waitlist/contract';
import { type Control, Controller, type FieldErrors, useFieldArray, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import type { BoundField } from '../../../lib/form-fields.ts';
import { dayNames, describePreference } from './preferences.ts';

type CustomerFormInput = z.input<typeof createCustomerBody>;
type PreferenceField = `preferences.${number}.from` | `preferences.${number}.to`;

const clockPattern = /^\d{2}:\d{2}$/;

/** The row as the list will show it, "Weekdays 9:00 am–5:00 pm", under the native time inputs. */
function PreferenceSummary({ control, index }: { control: Control<CustomerFormInput>; index: number }) {
  const preference = useWatch({ control, name: `preferences.${index}` });
  const days = preference?.days ?? [];
  const from = preference?.from ?? '';
  const to = preference?.to ?? '';
  if (days.length === 0 || !clockPattern.test(from) || !clockPattern.test(to)) return null;
  return (
    <p className="field__hint preference__summary" data-testid="preference-summary">
      {describePreference({ days, from, to })}
    </p>
  );
}

/** When the customer can come: days and hours; without any, every opening fits them. */
export function TimePreferencesFields({
  control,
  field,
  errors,
}: {
  control: Control<CustomerFormInput>;
  field: (name: PreferenceField) => BoundField;
  errors: FieldErrors<CustomerFormInput>['preferences'];
}) {
  const preferences = useFieldArray({ control, name: 'preferences' });
  return (
    <fieldset className="preferences">
      <legend className="field__label">
        When can they come? <span className="field__label-note">(optional)</span>
      </legend>
      <p className="field__hint">
        Without preferences they hear about every opening. With them, only openings that fit.
      </p>
      {preferences.fields.map((preference, index) => {
        const rowErrors = errors?.[index];
        return (
          <fieldset key={preference.id} className="preference">
            <legend className="visually-hidden">Preference {index + 1}</legend>
            <Controller
              control={control}
              name={`preferences.${index}.days`}
              render={({ field: { value: days = [], onChange } }) => (
                <div className="preference__days">
                  {dayNames.map((day, dayIndex) => {
                    const checked = days.includes(dayIndex);
                    return (
                      <label key={day} className={`day-toggle${checked ? ' day-toggle--on' : ''}`}>
                        <input
                          type="checkbox"
                          className="visually-hidden"
                          checked={checked}
                          onChange={() =>
                            onChange(
                              checked
                                ? days.filter((value) => value !== dayIndex)
                                : [...days, dayIndex].sort((a, b) => a - b),
                            )
                          }
                        />
                        <span aria-hidden="true">{day.slice(0, 2)}</span>
                        <span className="visually-hidden">{day}</span>
                      </label>
                    );
                  })}
                </div>
              )}
            />
            {rowErrors?.days ? <p className="field__error">Pick at least one day</p> : null}
            <div className="preference__times">
              <TextField label="From" type="time" {...field(`preferences.${index}.from`)} />
              <TextField label="To" type="time" {...field(`preferences.${index}.to`)} />
              <Button
                variant="ghost"
                className="preference__remove"
                aria-label={`Remove preference ${index + 1}`}
                onClick={() => preferences.remove(index)}
              >
                Remove
              </Button>
            </div>
            <PreferenceSummary control={control} index={index} />
          </fieldset>
        );
      })}
      <Button
        variant="secondary"
        onClick={() => preferences.append({ days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00' })}
      >
        Add a time preference
      </Button>
    </fieldset>
  );
}
