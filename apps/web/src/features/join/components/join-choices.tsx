import { SelectField } from '../../../components/ui/select-field.tsx';

type Choice = { id: string; name: string };

/**
 * The service the customer waits for and whom they want to see (issue 26), shown only when the business has
 * listed them. The words belong in the customer catalogue (packages/contract customer-words) once it has them.
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
          label="Service"
          labelNote="(optional)"
          value={serviceId}
          onChange={(event) => onService(event.target.value)}
        >
          <option value="">Any service</option>
          {services.map((service) => (
            <option key={service.id} value={service.id}>
              {service.name}
            </option>
          ))}
        </SelectField>
      ) : null}
      {staff.length > 0 ? (
        <SelectField
          label="Who would you like to see?"
          labelNote="(optional)"
          value={staffId}
          onChange={(event) => onStaff(event.target.value)}
        >
          <option value="">No preference</option>
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
