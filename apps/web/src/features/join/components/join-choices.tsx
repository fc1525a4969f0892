import { ChoiceSelect } from '../../../components/ui/select-field.tsx';
import { useJoinWords } from './join-language.tsx';

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
  const { t } = useJoinWords();
  return (
    <>
      {services.length > 0 ? (
        <ChoiceSelect
          label={t('join.page.serviceLabel')}
          labelNote={t('join.page.optional')}
          none={t('join.page.anyService')}
          choices={services}
          value={serviceId}
          onChange={(event) => onService(event.target.value)}
        />
      ) : null}
      {staff.length > 0 ? (
        <ChoiceSelect
          label={t('join.page.staffLabel')}
          labelNote={t('join.page.optional')}
          none={t('join.page.noPreference')}
          choices={staff}
          value={staffId}
          onChange={(event) => onStaff(event.target.value)}
        />
      ) : null}
    </>
  );
}
