import type { JoinWords } from '@waitlist/contract';
import { ChoiceSelect } from '../../../components/ui/select-field.tsx';

type Choice = { id: string; name: string };

/**
 * The service the customer waits for and whom they want to see (issue 26), shown only when the business has
 * listed them. Their words are the customer catalogue's (customer-words).
 */
export function JoinChoices({
  words,
  services,
  staff,
  serviceId,
  staffId,
  onService,
  onStaff,
}: {
  /** The page's words in its language (issue 28). */
  words: JoinWords['page'];
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
        <ChoiceSelect
          label={words.serviceLabel}
          labelNote={words.optional}
          none={words.anyService}
          choices={services}
          value={serviceId}
          onChange={(event) => onService(event.target.value)}
        />
      ) : null}
      {staff.length > 0 ? (
        <ChoiceSelect
          label={words.staffLabel}
          labelNote={words.optional}
          none={words.noPreference}
          choices={staff}
          value={staffId}
          onChange={(event) => onStaff(event.target.value)}
        />
      ) : null}
    </>
  );
}
