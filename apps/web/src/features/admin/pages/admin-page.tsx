import { authMessages } from '@waitlist/contract';
import { useCallback, useEffect, useRef } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useAdminUsers } from '../api/get-admin-users.ts';
import { useUsersView } from '../components/use-users-view.ts';
import { UsersFilters } from '../components/users-filters.tsx';
import { UsersPagination } from '../components/users-pagination.tsx';
import { UsersTable } from '../components/users-table.tsx';
import { isFiltered, nextSort, pageCount, usersCountLabel, usersRequestQuery } from '../utils/users-view.ts';
import '../components/admin.css';

/** /admin: every user in a read-only table (SPEC §2 "Admin page"), for admins only (the route's guard). */
export function AdminPage() {
  const { view, update } = useUsersView();
  const users = useAdminUsers(usersRequestQuery(view));
  const data = users.data;
  const filtered = isFiltered(view);

  // Starting or clearing a search is a step Back can undo; refining it replaces that step, so Back
  // does not walk through every pause in the typing.
  const onSearch = useCallback(
    (search: string) => update({ search }, { replace: view.search !== '' && search !== '' }),
    [update, view.search],
  );
  const clearFilters = () => update({ search: '', verified: '', plan: '' });

  // Paging from the buttons under a long table brings its top (and the loading note) back into view.
  const listTop = useRef<HTMLDivElement>(null);
  const goToPage = (page: number) => {
    update({ page });
    const top = listTop.current;
    // Hidden above the screen or under the sticky header (the scroll margin allows for it).
    const margin = top ? Number.parseFloat(getComputedStyle(top).scrollMarginTop) || 0 : 0;
    if (top && top.getBoundingClientRect().top < margin) top.scrollIntoView?.({ block: 'start' });
  };

  // A link to a page past the end (the list shrank since) shows the last page instead of an empty one. A
  // bounded count (not exact) always reaches past the page asked for, so only an exact one can end before it.
  const lastPage = data?.totalExact && !users.isPlaceholderData ? pageCount(data.total, view.pageSize) : null;
  useEffect(() => {
    if (lastPage !== null && data && data.total > 0 && view.page > lastPage) {
      update({ page: lastPage }, { replace: true });
    }
  }, [lastPage, data, view.page, update]);

  return (
    <div className="page admin-page">
      <header className="admin-page__header">
        <h1 className="page__title">Admin</h1>
        <p className="page__lead">
          Every account, with its plan and dedicated number. This list is read-only.
        </p>
      </header>

      <div className="stack">
        <UsersFilters view={view} onChange={(change) => update(change)} onSearch={onSearch} />

        <Card className="admin-users">
          {users.isPending ? (
            <Skeleton lines={6} label="Loading users" />
          ) : users.isError ? (
            <div className="stack admin-users__message">
              <Alert>{screenErrorMessage(users.error, authMessages.fetchUsersFailed)}</Alert>
              <Button variant="secondary" busy={users.isFetching} onClick={() => users.refetch()}>
                Retry
              </Button>
            </div>
          ) : (
            <>
              <div className="admin-users__summary" ref={listTop}>
                <p className="admin-users__count" aria-live="polite">
                  {usersCountLabel(data?.total ?? 0, data?.totalExact ?? true)}
                </p>
                {users.isPlaceholderData ? (
                  <p className="admin-users__updating" role="status">
                    <span className="spinner spinner--small" aria-hidden="true" />
                    Loading users…
                  </p>
                ) : null}
              </div>
              {data && data.data.length > 0 ? (
                <UsersTable
                  users={data.data}
                  sort={view.sort}
                  order={view.order}
                  updating={users.isPlaceholderData}
                  onSort={(sort) => update(nextSort(view, sort))}
                />
              ) : (
                <div className="stack admin-users__message admin-users__empty">
                  <p>{filtered ? 'No users match.' : 'No users yet.'}</p>
                  {filtered ? (
                    <Button variant="secondary" onClick={clearFilters}>
                      Clear filters
                    </Button>
                  ) : null}
                </div>
              )}
              {data && data.total > 0 ? (
                <UsersPagination
                  page={view.page}
                  pageSize={view.pageSize}
                  total={data.total}
                  totalExact={data.totalExact}
                  onPage={goToPage}
                  onPageSize={(pageSize) => update({ pageSize })}
                />
              ) : null}
            </>
          )}
        </Card>
      </div>
    </div>
  );
}
