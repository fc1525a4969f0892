import { offerMessages, type Service, serviceBody } from '@waitlist/contract';
import { z } from 'zod';
import { FormDialog, useFormKit } from '../../../components/ui/form-kit.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { useSaveService } from '../api/save-service.ts';

/** The form as typed: the length in minutes and the price in dollars, checked with the contract's words. */
const serviceForm = z.object({
  name: serviceBody.shape.name,
  durationMinutes: z
    .string()
    .trim()
    .refine((value) => serviceBody.shape.durationMinutes.safeParse(Number(value)).success && value !== '', {
      message: offerMessages.invalidDuration,
    }),
  price: z
    .string()
    .trim()
    .refine(
      (value) =>
        value === '' ||
        (/^\d+(\.\d{1,2})?$/.test(value) &&
          serviceBody.shape.priceCents.safeParse(Math.round(Number(value) * 100)).success),
      { message: offerMessages.invalidPrice },
    ),
});
type ServiceFormValues = z.infer<typeof serviceForm>;

const valuesFrom = (service?: Service): ServiceFormValues => ({
  name: service?.name ?? '',
  durationMinutes: service ? String(service.durationMinutes) : '60',
  price: service?.priceCents != null ? (service.priceCents / 100).toFixed(2) : '',
});

/** Add or edit one service: its name, length and price. */
export function ServiceFormDialog({ service, onClose }: { service?: Service; onClose: () => void }) {
  const toast = useToast();
  const save = useSaveService();
  const { submit, field, kit } = useFormKit(serviceForm, {
    defaultValues: valuesFrom(service),
    serverFields: ['name', 'durationMinutes'],
    failure: 'Could not save the service.',
  });

  const onSubmit = submit(async (values) => {
    const answer = await save.mutateAsync({
      id: service?.id,
      body: {
        name: values.name,
        durationMinutes: Number(values.durationMinutes),
        priceCents: values.price ? Math.round(Number(values.price) * 100) : null,
      },
    });
    toast.success(answer.message ?? offerMessages.serviceSaved);
    onClose();
  });

  return (
    <FormDialog
      kit={kit}
      title={service ? `Edit ${service.name}` : 'Add a service'}
      formId={service ? `edit-service-${service.id}` : 'add-service'}
      label="Service"
      submitLabel={service ? 'Save changes' : 'Add service'}
      onClose={onClose}
      onSubmit={onSubmit}
    >
      <TextField label="Name" autoComplete="off" placeholder="Haircut" {...field('name')} />
      <div className="form__row form__row--2">
        <TextField label="Length (minutes)" inputMode="numeric" {...field('durationMinutes')} />
        <TextField
          label="Price ($)"
          labelNote="(optional)"
          inputMode="decimal"
          placeholder="45.00"
          {...field('price')}
        />
      </div>
    </FormDialog>
  );
}
