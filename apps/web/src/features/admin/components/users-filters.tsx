import { type AdminSortKey, planLabel, type SortOrder, subscriptionPlans } from '@waitlist/contract';
import { SelectField } from '../../../components/ui/select-field.tsx';
import type { PlanFilter, UsersView, VerifiedFilter } from '../utils/users-view.ts';
import { UsersSearch } from './users-search.tsx';

type UsersFiltersProps = {
  view: UsersView;
  onChange: (change: Partial<UsersView>) => void;
  onSearch: (search: string) => void;
};

/** Every sort key in both orders, for the phone layout's menu. */
const sortChoices: { sort: AdminSortKey; order: SortOrder; label: string }[] = [
  { sort: 'createdAt', order: 'desc', label: 'Newest first' },
  { sort: 'createdAt', order: 'asc', label: 'Oldest first' },
  { sort: 'firstName', order: 'asc', label: 'Name, A to Z' },
  { sort: 'firstName', order: 'desc', label: 'Name, Z to A' },
  { sort: 'email', order: 'asc', label: 'Email, A to Z' },
  { sort: 'email', order: 'desc', label: 'Email, Z to A' },
  { sort: 'businessName', order: 'asc', label: 'Business, A to Z' },
  { sort: 'businessName', order: 'desc', label: 'Business, Z to A' },
  { sort: 'subscriptionPlan', order: 'asc', label: 'Plan, Free Trial first' },
  { sort: 'subscriptionPlan', order: 'desc', label: 'Plan, Growth first' },
];

/** Search, the Verified and Plan filters, and (on phones, where the column headers are hidden) a sort menu. */
export function UsersFilters({ view, onChange, onSearch }: UsersFiltersProps) {
  return (
    <search className="admin-filters" aria-label="Filter users">
      <UsersSearch value={view.search} onSearch={onSearch} />
      <SelectField
        label="Verified"
        className="admin-filters__select"
        value={view.verified}
        onChange={(event) => onChange({ verified: event.target.value as VerifiedFilter })}
      >
        <option value="">All</option>
        <option value="true">Verified</option>
        <option value="false">Unverified</option>
      </SelectField>
      <SelectField
        label="Plan"
        className="admin-filters__select"
        value={view.plan}
        onChange={(event) => onChange({ plan: event.target.value as PlanFilter })}
      >
        <option value="">All</option>
        {subscriptionPlans.map((plan) => (
          <option key={plan} value={plan}>
            {planLabel(plan)}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Sort by"
        className="admin-filters__select admin-filters__sort"
        value={`${view.sort}:${view.order}`}
        onChange={(event) => {
          const choice = sortChoices.find(({ sort, order }) => `${sort}:${order}` === event.target.value);
          if (choice) onChange({ sort: choice.sort, order: choice.order });
        }}
      >
        {sortChoices.map(({ sort, order, label }) => (
          <option key={`${sort}:${order}`} value={`${sort}:${order}`}>
            {label}
          </option>
        ))}
      </SelectField>
    </search>
  );
}
