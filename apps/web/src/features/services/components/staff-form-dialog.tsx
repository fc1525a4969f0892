import { offerMessages, type StaffMember, staffBody } from '@waitlist/contract';
import { FormDialog, useFormKit } from '../../../components/ui/form-kit.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { useSaveStaff } from '../api/save-staff.ts';

/** Add or rename one staff member. */
export function StaffFormDialog({ member, onClose }: { member?: StaffMember; onClose: () => void }) {
  const toast = useToast();
  const save = useSaveStaff();
  const { submit, field, kit } = useFormKit(staffBody, {
    defaultValues: { name: member?.name ?? '' },
    serverFields: ['name'],
    failure: 'Could not save the staff member.',
  });

  const onSubmit = submit(async (values) => {
    const answer = await save.mutateAsync({ id: member?.id, body: values });
    toast.success(answer.message ?? offerMessages.staffSaved);
    onClose();
  });

  return (
    <FormDialog
      kit={kit}
      title={member ? `Edit ${member.name}` : 'Add a staff member'}
      formId={member ? `edit-staff-${member.id}` : 'add-staff'}
      label="Staff member"
      submitLabel={member ? 'Save changes' : 'Add staff member'}
      onClose={onClose}
      onSubmit={onSubmit}
    >
      <TextField label="Name" autoComplete="off" placeholder="Ana" {...field('name')} />
    </FormDialog>
  );
}
