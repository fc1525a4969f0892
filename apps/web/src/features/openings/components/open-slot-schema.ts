import { type CreateOpeningBody, offerMessages, openingModes } from '@waitlist/contract';
import { z } from 'zod';

const whole = (value: string) => /^\d+$/.test(value.trim());

/** The Service select's "Something else (type it)": a name typed in `service` instead of one of the list. */
export const OTHER_SERVICE = 'other';
/** Issue 39: with services, none is chosen for the owner; the form asks for the one that was cancelled. */
export const chooseServiceMessage = 'Choose the service that was cancelled';

/** The form as typed (strings), checked before it becomes POST /openings/preview, then POST /openings. */
export const openSlotForm = z
  .object({
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose the date'),
    time: z.string().regex(/^\d{2}:\d{2}$/, 'Choose the time'),
    /** One of the business's services, OTHER_SERVICE for a name typed in `service`, '' when none is chosen. */
    serviceId: z.string(),
    service: z.string().trim().max(200),
    /** '' = anyone. */
    staffId: z.string(),
    durationMinutes: z
      .string()
      .refine(
        (value) => whole(value) && Number(value) >= 5 && Number(value) <= 1440,
        'Between 5 and 1440 minutes',
      ),
    price: z
      .string()
      .trim()
      .regex(/^(\d+(\.\d{1,2})?)?$/, 'A price like 45 or 45.50'),
    mode: z.enum(openingModes),
    waveSize: z.string(),
    claimWindowMinutes: z.string(),
  })
  .superRefine((form, ctx) => {
    if ((!form.serviceId || form.serviceId === OTHER_SERVICE) && !form.service) {
      ctx.addIssue({ code: 'custom', path: ['service'], message: offerMessages.serviceOrNameRequired });
      // With services, the select shows this one (the name field appears only for "Something else").
      if (!form.serviceId)
        ctx.addIssue({ code: 'custom', path: ['serviceId'], message: chooseServiceMessage });
    }
    if (form.mode !== 'waves') return;
    if (!whole(form.waveSize) || Number(form.waveSize) < 1 || Number(form.waveSize) > 100) {
      ctx.addIssue({ code: 'custom', path: ['waveSize'], message: 'Between 1 and 100 customers' });
    }
    if (
      !whole(form.claimWindowMinutes) ||
      Number(form.claimWindowMinutes) < 1 ||
      Number(form.claimWindowMinutes) > 1440
    ) {
      ctx.addIssue({ code: 'custom', path: ['claimWindowMinutes'], message: 'Between 1 and 1440 minutes' });
    }
  });
export type OpenSlotFormValues = z.infer<typeof openSlotForm>;

export const openSlotDefaults = (date: string): OpenSlotFormValues => ({
  date,
  time: '',
  serviceId: '',
  service: '',
  staffId: '',
  durationMinutes: '60',
  price: '',
  mode: 'auto',
  waveSize: '3',
  claimWindowMinutes: '10',
});

export function toCreateOpeningBody(form: OpenSlotFormValues): CreateOpeningBody {
  const price = form.price.trim();
  const service = form.service.trim();
  return {
    startsAt: `${form.date}T${form.time}`,
    durationMinutes: Number(form.durationMinutes),
    ...(service ? { service } : {}),
    ...(form.serviceId && form.serviceId !== OTHER_SERVICE ? { serviceId: form.serviceId } : {}),
    ...(form.staffId ? { staffId: form.staffId } : {}),
    priceCents: price ? Math.round(Number(price) * 100) : null,
    mode: form.mode,
    ...(form.mode === 'waves'
      ? { waveSize: Number(form.waveSize), claimWindowMinutes: Number(form.claimWindowMinutes) }
      : {}),
  };
}
