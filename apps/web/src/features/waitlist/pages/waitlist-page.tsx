import {
  type Customer,
  type CustomerLanguage,
  type CustomerStatus,
  customerLanguages,
  customerStatuses,
  languageLabels,
} from '@waitlist/contract';
import { useEffect, useId, useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ReadOnlyBanner } from '../../../components/ui/read-only-banner.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { TextNumberNotice } from '../../../components/ui/text-number-notice.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/auth.tsx';
import { useWaitlist, type WaitlistFilters } from '../api/get-waitlist.ts';
import { useReorderWaitlist } from '../api/reorder-waitlist.ts';
import { CapMeter } from '../components/cap-meter.tsx';
import { CustomerFormDialog } from '../components/customer-form-dialog.tsx';
import { type CustomerAction, CustomerRow } from '../components/customer-row.tsx';
import { ImportDialog } from '../components/import-dialog.tsx';
import { JoinLinkCard } from '../components/join-link-card.tsx';
import { RemoveCustomerDialog } from '../components/remove-customer-dialog.tsx';
import { SendTextDialog } from '../components/send-text-dialog.tsx';
import { customerStatusLabels } from '../components/status.ts';
import { TemplatesDialog } from '../components/templates-dialog.tsx';
import { useRestoreCustomerAction } from '../components/use-restore-customer.ts';
import '../components/waitlist-page.css';

type Dialog =
  | { kind: 'add' }
  | { kind: 'import' }
  | { kind: 'templates' }
  | { kind: Exclude<CustomerAction, 'restore'>; customer: Customer }
  | null;

const SEARCH_DELAY_MS = 250;

/** The search box and status chips; the list follows the search box a moment after typing stops, not on every key. */
function useWaitlistFilters() {
  const [searchInput, setSearchInput] = useState('');
  const [filters, setFilters] = useState<WaitlistFilters>({ search: '', status: '', language: '' });

  useEffect(() => {
    const timer = setTimeout(
      () =>
        setFilters((current) =>
          current.search === searchInput ? current : { ...current, search: searchInput },
        ),
      SEARCH_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [searchInput]);

  return { searchInput, setSearchInput, filters, setFilters };
}

/** Moving a customer up or down the line: the new order saved, said aloud, and the keyboard kept in place. */
function useMoveCustomer(ordered: Customer[], filters: WaitlistFilters) {
  const toast = useToast();
  const reorder = useReorderWaitlist(filters);
  const [announcement, setAnnouncement] = useState('');
  const [focusAfterMove, setFocusAfterMove] = useState<{ id: string; direction: 'up' | 'down' } | null>(null);
  const orderKey = ordered.map((customer) => customer.id).join();

  // A moved row's DOM node changes place, which can drop focus: keep the keyboard on the same button.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again when the order on screen changes
  useEffect(() => {
    if (!focusAfterMove) return;
    const selector = (direction: string) =>
      `[data-customer="${focusAfterMove.id}"][data-move="${direction}"]`;
    const same = document.querySelector<HTMLButtonElement>(selector(focusAfterMove.direction));
    const other = document.querySelector<HTMLButtonElement>(
      selector(focusAfterMove.direction === 'up' ? 'down' : 'up'),
    );
    (same && !same.disabled ? same : other)?.focus();
  }, [focusAfterMove, orderKey]);

  const move = (customer: Customer, direction: 'up' | 'down') => {
    const index = ordered.findIndex((candidate) => candidate.id === customer.id);
    const target = direction === 'up' ? index - 1 : index + 1;
    if (index < 0 || target < 0 || target >= ordered.length) return;
    const ids = ordered.map((candidate) => candidate.id);
    [ids[index], ids[target]] = [ids[target] as string, ids[index] as string];
    setFocusAfterMove({ id: customer.id, direction });
    setAnnouncement(`${customer.name} moved to place ${target + 1} of ${ids.length}.`);
    reorder.mutate(ids, {
      onSettled: () => setFocusAfterMove(null),
      onError: (error) => {
        setAnnouncement(`${customer.name} could not be moved.`);
        toast.error(screenErrorMessage(error, 'Could not reorder the waitlist.'));
      },
    });
  };

  return { announcement, move };
}

/** /waitlist: the customers in waitlist order, with everything an owner does at the front desk. */
export function WaitlistPage() {
  const user = useCurrentUser();
  const { searchInput, setSearchInput, filters, setFilters } = useWaitlistFilters();
  const [dialog, setDialog] = useState<Dialog>(null);
  const waitlist = useWaitlist(filters);

  const data = waitlist.data;
  const readOnly = data?.readOnly ?? false;
  const filtered = filters.search.trim() !== '' || filters.status !== '' || filters.language !== '';
  // A filtered list can be reordered too: the customers shown swap the places they hold.
  const canReorder = Boolean(data) && !readOnly && filters.status !== 'removed';
  // In line: waiting or offered. A booked customer got a slot, so holds no place (and sinks below the line).
  const ordered =
    data?.customers.filter((customer) => customer.status !== 'removed' && customer.status !== 'booked') ?? [];
  const shown = data
    ? filters.status === ''
      ? [...ordered, ...data.customers.filter((customer) => customer.status === 'booked')]
      : data.customers
    : [];
  const atCap = data ? data.cap !== null && data.count >= data.cap : false;
  const { announcement, move } = useMoveCustomer(ordered, filters);

  const restore = useRestoreCustomerAction();
  // Restore needs no dialog: the removed customer goes straight back in line (issue 27).
  const onAction = (kind: CustomerAction, customer: Customer) =>
    kind === 'restore' ? void restore(customer) : setDialog({ kind, customer });

  return (
    <div className="page waitlist">
      <header className="split-header waitlist__header">
        <div>
          <h1 className="page__title">Waitlist</h1>
          {data ? <CapMeter count={data.count} cap={data.cap} plan={data.plan} /> : null}
        </div>
        <div className="waitlist__header-actions">
          <Button onClick={() => setDialog({ kind: 'add' })} disabled={!data || readOnly || atCap}>
            Add customer
          </Button>
          <Button
            variant="secondary"
            onClick={() => setDialog({ kind: 'import' })}
            disabled={!data || readOnly}
          >
            Import CSV
          </Button>
          <Button variant="ghost" onClick={() => setDialog({ kind: 'templates' })}>
            Message templates
          </Button>
        </div>
      </header>

      <div className="stack">
        {data?.readOnly ? <ReadOnlyBanner reason={data.readOnlyReason} /> : null}
        <TextNumberNotice status={user.plivoNumberStatus} />

        <WaitlistTools
          searchInput={searchInput}
          onSearchInput={setSearchInput}
          status={filters.status}
          onStatus={(status) => setFilters((current) => ({ ...current, status }))}
          language={filters.language}
          onLanguage={(language) => setFilters((current) => ({ ...current, language }))}
        />

        <p className="visually-hidden" aria-live="polite">
          {announcement}
        </p>

        {waitlist.isPending ? (
          <Card>
            <Skeleton lines={5} label="Loading your waitlist" />
          </Card>
        ) : waitlist.isError ? (
          <Card className="stack">
            <Alert>{screenErrorMessage(waitlist.error, 'Failed to load your waitlist.')}</Alert>
            <Button variant="secondary" onClick={() => waitlist.refetch()}>
              Try again
            </Button>
          </Card>
        ) : waitlist.data.customers.length === 0 ? (
          <EmptyWaitlist filtered={filtered} />
        ) : (
          <ol className="list-stack customer-list" aria-label="Customers in waitlist order">
            {shown.map((customer) => {
              const place = ordered.indexOf(customer);
              return (
                <CustomerRow
                  key={customer.id}
                  customer={customer}
                  place={customer.place}
                  readOnly={readOnly}
                  onAction={onAction}
                  move={
                    canReorder && place >= 0
                      ? {
                          up: place > 0,
                          down: place < ordered.length - 1,
                          onMove: (direction) => move(customer, direction),
                        }
                      : null
                  }
                />
              );
            })}
          </ol>
        )}
      </div>

      {data ? <JoinLinkCard /> : null}
      <WaitlistDialogs
        dialog={dialog}
        onClose={() => setDialog(null)}
        readOnly={readOnly}
        waitingCustomers={
          filtered
            ? undefined
            : ordered.filter((customer) => customer.status === 'waiting' && !customer.optedOut).length
        }
      />
    </div>
  );
}

function WaitlistTools({
  searchInput,
  onSearchInput,
  status,
  onStatus,
  language,
  onLanguage,
}: {
  searchInput: string;
  onSearchInput: (search: string) => void;
  status: CustomerStatus | '';
  onStatus: (status: CustomerStatus | '') => void;
  language: CustomerLanguage | '';
  onLanguage: (language: CustomerLanguage | '') => void;
}) {
  const searchId = useId();
  const languageId = useId();
  return (
    <search className="waitlist__tools">
      <div className="field waitlist__search">
        <label className="visually-hidden" htmlFor={searchId}>
          Search the waitlist
        </label>
        <input
          id={searchId}
          type="search"
          className="field__input"
          placeholder="Search name, phone or notes"
          value={searchInput}
          onChange={(event) => onSearchInput(event.target.value)}
        />
      </div>
      <fieldset className="status-chips">
        <legend className="visually-hidden">Show</legend>
        {(['', ...customerStatuses] as const).map((chip) => (
          <button
            key={chip || 'all'}
            type="button"
            className="status-chip"
            aria-pressed={status === chip}
            onClick={() => onStatus(chip as CustomerStatus | '')}
          >
            {chip ? customerStatusLabels[chip] : 'Active'}
          </button>
        ))}
      </fieldset>
      <div className="waitlist__language">
        <label className="visually-hidden" htmlFor={languageId}>
          Language
        </label>
        <select
          id={languageId}
          className="field__input"
          value={language}
          onChange={(event) => onLanguage(event.target.value as CustomerLanguage | '')}
        >
          <option value="">All languages</option>
          {customerLanguages.map((choice) => (
            <option key={choice} value={choice}>
              {languageLabels[choice]}
            </option>
          ))}
        </select>
      </div>
    </search>
  );
}

function EmptyWaitlist({ filtered }: { filtered: boolean }) {
  return (
    <Card className="waitlist__empty">
      {filtered ? (
        <p>No customers match. Try another search or show all.</p>
      ) : (
        <>
          <h2 className="card__title">Your waitlist is empty</h2>
          <p className="card__subtitle">
            Add customers who want an earlier appointment. When someone cancels, open the slot on Openings and
            they get a text.
          </p>
        </>
      )}
    </Card>
  );
}

/** The one dialog open at a time, if any. */
function WaitlistDialogs({
  dialog,
  onClose,
  readOnly,
  waitingCustomers,
}: {
  dialog: Dialog;
  onClose: () => void;
  readOnly: boolean;
  /** How many waiting customers a template would reach; unknown while the list is filtered. */
  waitingCustomers: number | undefined;
}) {
  switch (dialog?.kind) {
    case 'add':
      return <CustomerFormDialog key="add" onClose={onClose} />;
    case 'edit':
      return <CustomerFormDialog key="edit" customer={dialog.customer} onClose={onClose} />;
    case 'remove':
      return <RemoveCustomerDialog customer={dialog.customer} onClose={onClose} />;
    case 'text':
      return <SendTextDialog customer={dialog.customer} onClose={onClose} />;
    case 'import':
      return <ImportDialog onClose={onClose} />;
    case 'templates':
      return <TemplatesDialog readOnly={readOnly} onClose={onClose} waitingCustomers={waitingCustomers} />;
    default:
      return null;
  }
}
