import { type AdminSortKey, planLabel, type SortOrder, type User } from '@waitlist/contract';
import { Fragment } from 'react';
import { Badge } from '../../../components/ui/badge.tsx';
import {
  businessPhoneOf,
  EMPTY_CELL,
  formatAdminPhone,
  formatCreatedAt,
  fullName,
  numberStatusBadge,
  subscriptionStatusBadge,
} from '../utils/user-display.ts';

type UsersTableProps = {
  users: User[];
  sort: AdminSortKey;
  order: SortOrder;
  onSort: (sort: AdminSortKey) => void;
  /** A new page or filter is loading while this one stays on screen. */
  updating: boolean;
};

/** The read-only user table (SPEC §2 "Admin page"); on phones each row becomes a card (admin.css). */
export function UsersTable({ users, sort, order, onSort, updating }: UsersTableProps) {
  const header = (label: string, key: AdminSortKey) => (
    <SortableHeader label={label} column={key} active={sort === key} order={order} onSort={onSort} />
  );
  return (
    <div className="admin-users__scroll">
      <table
        className={`data-table admin-users__table${updating ? ' admin-users__table--updating' : ''}`}
        aria-busy={updating || undefined}
      >
        <caption className="visually-hidden">Users</caption>
        <thead>
          <tr>
            <th scope="col">_id</th>
            {header('Name', 'firstName')}
            {header('Email', 'email')}
            {header('Business', 'businessName')}
            <th scope="col">Phone</th>
            {header('Plan', 'subscriptionPlan')}
            <th scope="col">Status</th>
            <th scope="col">Verified</th>
            <th scope="col">Dedicated number</th>
            <th scope="col">Number status</th>
            {header('Created', 'createdAt')}
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <UserRow key={user.id} user={user} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

type SortableHeaderProps = {
  label: string;
  column: AdminSortKey;
  active: boolean;
  order: SortOrder;
  onSort: (sort: AdminSortKey) => void;
};

function SortableHeader({ label, column, active, order, onSort }: SortableHeaderProps) {
  const direction = order === 'asc' ? 'ascending' : 'descending';
  return (
    <th scope="col" aria-sort={active ? direction : undefined}>
      <button
        type="button"
        className={`admin-users__sort${active ? ' admin-users__sort--active' : ''}`}
        onClick={() => onSort(column)}
      >
        {label}
        <span className="admin-users__sort-icon" aria-hidden="true">
          {active ? (order === 'asc' ? '↑' : '↓') : '↕'}
        </span>
      </button>
    </th>
  );
}

/** A UUID may wrap after any of its hyphens (browsers will not break before a digit on their own). */
function breakableId(id: string) {
  const parts = id.split('-');
  return parts.map((part, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one id never reorder
    <Fragment key={index}>
      {part}
      {index < parts.length - 1 ? (
        <>
          -<wbr />
        </>
      ) : null}
    </Fragment>
  ));
}

/** A long address wraps before its @ rather than mid-word. */
function breakableEmail(email: string) {
  const at = email.lastIndexOf('@');
  if (at <= 0) return email;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}

function UserRow({ user }: { user: User }) {
  const status = subscriptionStatusBadge(user.subscriptionStatus);
  const numberStatus = numberStatusBadge(user.plivoNumberStatus);
  const created = formatCreatedAt(user.createdAt);
  return (
    <tr>
      <td data-label="_id" className="admin-users__id">
        <code>{breakableId(user._id)}</code>
      </td>
      <th scope="row" data-label="Name" className="admin-users__name">
        {fullName(user)}
      </th>
      <td data-label="Email" className="admin-users__email">
        {breakableEmail(user.email)}
      </td>
      <td data-label="Business" className="admin-users__business">
        {user.businessName || EMPTY_CELL}
      </td>
      <td data-label="Phone" className="admin-users__phone">
        {formatAdminPhone(businessPhoneOf(user))}
      </td>
      <td data-label="Plan" className="admin-users__nowrap">
        {planLabel(user.subscriptionPlan)}
      </td>
      <td data-label="Status">
        <Badge tone={status.tone}>{status.label}</Badge>
      </td>
      <td data-label="Verified">{user.verified ? 'Yes' : 'No'}</td>
      <td data-label="Dedicated number" className="admin-users__phone">
        {formatAdminPhone(user.plivoNumber)}
      </td>
      <td data-label="Number status">
        {numberStatus ? <Badge tone={numberStatus.tone}>{numberStatus.label}</Badge> : EMPTY_CELL}
      </td>
      <td data-label="Created" className="admin-users__nowrap">
        {created ? (
          <time dateTime={user.createdAt} title={created.long}>
            {created.short}
          </time>
        ) : (
          EMPTY_CELL
        )}
      </td>
    </tr>
  );
}
