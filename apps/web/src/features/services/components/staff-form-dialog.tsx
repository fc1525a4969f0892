import { offerMessages, type StaffMember, staffBody } from '@waitlist/contract';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { applyServerFieldErrors } from '../../../lib/form-errors.ts';
import { useZodForm } from '../../../lib/zod-form.ts';
import { useSaveStaff } from '../api/save-staff.ts';

/** Add or rename one staff member. */
export function StaffFormDialog({ member, onClose }: { member?: StaffMember; onClose: () => void }) {
  const toast = useToast();
  const save = useSaveStaff();
  const [formError, setFormError] = useState<string | null>(null);
  const { handleSubmit, setError, field, formState } = useZodForm(staffBody, {
    defaultValues: { name: member?.name ?? '' },
  });
  const formId = member ? `edit-staff-${member.id}` : 'add-staff';

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await save.mutateAsync({ id: member?.id, body: values });
      toast.success(answer.message ?? offerMessages.staffSaved);
      onClose();
    } catch (error) {
      applyServerFieldErrors(error, setError, ['name']);
      setFormError(screenErrorMessage(error, 'Could not save the staff member.'));
    }
  });

  return (
    <Modal
      title={member ? `Edit ${member.name}` : 'Add a staff member'}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={formId} busy={formState.isSubmitting}>
            {member ? 'Save changes' : 'Add staff member'}
          </Button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={onSubmit} noValidate aria-label="Staff member">
        {formError ? <Alert>{formError}</Alert> : null}
        <TextField label="Name" autoComplete="off" placeholder="Ana" {...field('name')} />
      </form>
    </Modal>
  );
}
