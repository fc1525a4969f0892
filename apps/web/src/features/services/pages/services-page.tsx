import type { Service, StaffMember } from '@waitlist/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { Card } from '../../../components/ui/card.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { dollars, minutesLabel, useServices, useStaff } from '../../../lib/services-and-staff.ts';
import { DeleteEntryDialog } from '../components/delete-entry-dialog.tsx';
import { EntryListCard } from '../components/entry-list-card.tsx';
import { ServiceFormDialog } from '../components/service-form-dialog.tsx';
import { StaffFormDialog } from '../components/staff-form-dialog.tsx';
import '../components/services.css';

/** Which dialog is open: adding (no entry) or editing or deleting one. */
type Dialog =
  | { kind: 'service'; action: 'edit'; entry?: Service }
  | { kind: 'staff'; action: 'edit'; entry?: StaffMember }
  | { kind: 'service' | 'staff'; action: 'delete'; entry: { id: string; name: string } };

const serviceMeta = (service: Service) =>
  [minutesLabel(service.durationMinutes), service.priceCents !== null ? dollars(service.priceCents) : null]
    .filter(Boolean)
    .join(' · ');

/** Where the rules offers follow now live (issue 39): one line and the way there. */
function OfferRulesLink() {
  return (
    <Card className="stack">
      <header className="card__header">
        <h2 className="card__title">Offer rules</h2>
        <p className="card__subtitle">
          The hours offers may be texted, and how many a customer gets a day, are in Settings.
        </p>
      </header>
      <Link to="/settings/offer-rules">Set the offer rules</Link>
    </Card>
  );
}

/** /services: the business's services and staff (issue 26). */
export function ServicesPage() {
  const services = useServices();
  const staff = useStaff();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);
  const find = <T extends { id: string }>(list: T[] | undefined, id: string) =>
    list?.find((entry) => entry.id === id);

  return (
    <div className="page services-page">
      <header className="services-page__header">
        <h1 className="page__title">Services &amp; staff</h1>
        <p className="page__lead">
          Each opening is offered only to the customers it fits: the service they wait for, and the person
          they want to see.
        </p>
      </header>
      <div className="page-columns">
        <div className="stack">
          <EntryListCard
            title="Services"
            subtitle="Name, length and price; an opening for a service fills in its length and price."
            empty="Add your services so each opening is offered only to customers it fits. Without services, every opening goes to everyone who can come."
            addLabel="Add a service"
            entries={services.data?.map((service) => ({ ...service, meta: serviceMeta(service) }))}
            loading={services.isPending}
            error={
              services.isError ? screenErrorMessage(services.error, 'Failed to load your services.') : null
            }
            onRetry={() => services.refetch()}
            onAdd={() => setDialog({ kind: 'service', action: 'edit' })}
            onEdit={(id) => setDialog({ kind: 'service', action: 'edit', entry: find(services.data, id) })}
            onDelete={(id) => {
              const entry = find(services.data, id);
              if (entry) setDialog({ kind: 'service', action: 'delete', entry });
            }}
          />
          <EntryListCard
            title="Staff"
            subtitle="Stylists or practitioners customers may ask for by name."
            empty="Add your staff if customers ask for someone by name; an opening with a staff member then goes only to those who want them or anyone. Working alone? Leave this empty."
            addLabel="Add a staff member"
            entries={staff.data}
            loading={staff.isPending}
            error={staff.isError ? screenErrorMessage(staff.error, 'Failed to load your staff.') : null}
            onRetry={() => staff.refetch()}
            onAdd={() => setDialog({ kind: 'staff', action: 'edit' })}
            onEdit={(id) => setDialog({ kind: 'staff', action: 'edit', entry: find(staff.data, id) })}
            onDelete={(id) => {
              const entry = find(staff.data, id);
              if (entry) setDialog({ kind: 'staff', action: 'delete', entry });
            }}
          />
        </div>
        <aside>
          <OfferRulesLink />
        </aside>
      </div>
      {dialog?.action === 'delete' ? (
        <DeleteEntryDialog kind={dialog.kind} entry={dialog.entry} onClose={close} />
      ) : dialog?.kind === 'service' ? (
        <ServiceFormDialog service={dialog.entry} onClose={close} />
      ) : dialog?.kind === 'staff' ? (
        <StaffFormDialog member={dialog.entry} onClose={close} />
      ) : null}
    </div>
  );
}
