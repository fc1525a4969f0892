import { customerWords } from '@waitlist/contract';
import { SelectField } from '../../../components/ui/select-field.tsx';

const words = customerWords().join.page;

type Choice = { id: string; name: string };

/**
 * The service the customer waits for and whom they want to see (issue 26), shown only when the business has
 * listed them. Their words are the customer catalogue's (customer-words).
 */
export function JoinChoices({
  services,
  staff,
  serviceId,
  staffId,
  onService,
  onStaff,
}: {
  services: Choice[];
  staff: Choice[];
  serviceId: string;
  staffId: string;
  onService: (id: string) => void;
  onStaff: (id: string) => void;
}) {
  return (
    <>
      {services.length > 0 ? (
        <SelectField
          label={words.serviceLabel}
          labelNote={words.optional}
          value={serviceId}
          onChange={(event) => onService(event.target.value)}
        >
          <option value="">{words.anyService}</option>
          {services.map((service) => (
            <option key={service.id} value={service.id}>
              {service.name}
            </option>
          ))}
        </SelectField>
      ) : null}
      {staff.length > 0 ? (
        <SelectField
          label={words.staffLabel}
          labelNote={words.optional}
          value={staffId}
          onChange={(event) => onStaff(event.target.value)}
        >
          <option value="">{words.noPreference}</option>
          {staff.map((member) => (
            <option key={member.id} value={member.id}>
              {member.name}
            </option>
          ))}
        </SelectField>
      ) : null}
    </>
  );
}
