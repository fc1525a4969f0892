import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { readUsersView, type UsersView, writeUsersView } from '../utils/users-view.ts';

/**
 * The admin list's view, kept in the address so it can be shared and Back steps through it.
 * Any change other than the page itself starts again at page 1.
 */
export function useUsersView() {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => readUsersView(params), [params]);

  // A link with defaults spelled out or values we cannot use is tidied to the view actually shown.
  const canonical = writeUsersView(view).toString();
  useEffect(() => {
    if (canonical !== params.toString()) setParams(new URLSearchParams(canonical), { replace: true });
  }, [canonical, params, setParams]);

  const update = useCallback(
    (change: Partial<UsersView>, { replace = false }: { replace?: boolean } = {}) => {
      setParams(
        (current) => {
          const next = { ...readUsersView(current), ...change };
          if (change.page === undefined) next.page = 1;
          return writeUsersView(next);
        },
        { replace },
      );
    },
    [setParams],
  );

  return { view, update };
}
