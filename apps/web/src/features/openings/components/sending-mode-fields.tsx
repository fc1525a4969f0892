import type { UseFormRegister } from 'react-hook-form';
import { TextField } from '../../../components/ui/text-field.tsx';
import type { BoundField } from '../../../lib/form-fields.ts';
import type { OpenSlotFormValues } from './open-slot-schema.ts';

type SendingModeFieldsProps = {
  register: UseFormRegister<OpenSlotFormValues>;
  field: (name: keyof OpenSlotFormValues) => BoundField;
  values: Pick<OpenSlotFormValues, 'mode' | 'waveSize' | 'claimWindowMinutes'>;
};

/** Who gets the text, and when: the automatic plan (the default), everyone at once, or waves by hand. */
export function SendingModeFields({ register, field, values }: SendingModeFieldsProps) {
  const size = values.waveSize.trim() || 'N';
  const every = values.claimWindowMinutes.trim() || 'M';
  return (
    <>
      <fieldset className="mode-choice">
        <legend className="field__label">Who gets the text</legend>
        <label className="mode-choice__option">
          <input type="radio" value="auto" {...register('mode')} />
          <span>
            <strong>Automatic (recommended)</strong>
            <span className="field__hint">
              Those most likely to claim first, with room for newcomers and those who waited longest; waves
              and the time to claim fit how soon the slot starts.
            </span>
          </span>
        </label>
        <label className="mode-choice__option">
          <input type="radio" value="all" {...register('mode')} />
          <span>
            <strong>Everyone at once</strong>
            <span className="field__hint">Everyone who fits hears at the same time; first YES wins.</span>
          </span>
        </label>
        <label className="mode-choice__option">
          <input type="radio" value="waves" {...register('mode')} />
          <span>
            <strong>
              Waves of {size} every {every} minutes
            </strong>
            <span className="field__hint">
              A few customers at a time; the next wave goes out only if nobody claims in time.
            </span>
          </span>
        </label>
      </fieldset>
      {values.mode === 'waves' ? (
        <div className="form__row form__row--2">
          <TextField
            label="Customers per wave"
            inputMode="numeric"
            hint="1 = one customer at a time."
            {...field('waveSize')}
          />
          <TextField
            label="Minutes between waves"
            inputMode="numeric"
            hint="How long each wave has to claim."
            {...field('claimWindowMinutes')}
          />
        </div>
      ) : null}
    </>
  );
}
