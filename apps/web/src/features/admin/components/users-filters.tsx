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

const verifiedChoices = [
  { value: 'true', label: 'Verified' },
  { value: 'false', label: 'Unverified' },
];
const planChoices = subscriptionPlans.map((plan) => ({ value: plan, label: planLabel(plan) }));

/** A filter that is off ("All") or narrows the list to one of its choices. */
function FilterSelect(props: {
  label: string;
  value: string;
  choices: { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  return (
    <SelectField
      label={props.label}
      className="admin-filters__select"
      value={props.value}
      onChange={(event) => props.onChange(event.target.value)}
    >
      <option value="">All</option>
      {props.choices.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </SelectField>
  );
}

/** Search, the Verified and Plan filters, and (on phones, where the column headers are hidden) a sort menu. */
export function UsersFilters({ view, onChange, onSearch }: UsersFiltersProps) {
  return (
    <search className="admin-filters" aria-label="Filter users">
      <UsersSearch value={view.search} onSearch={onSearch} />
      <FilterSelect
        label="Verified"
        value={view.verified}
        choices={verifiedChoices}
        onChange={(verified) => onChange({ verified: verified as VerifiedFilter })}
      />
      <FilterSelect
        label="Plan"
        value={view.plan}
        choices={planChoices}
        onChange={(plan) => onChange({ plan: plan as PlanFilter })}
      />
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
