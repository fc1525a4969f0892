import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MockAnswer } from '../../../test/mock-api.ts';
import {
  columnHeader,
  makeUsers,
  openAdmin,
  shownNames,
  table,
  usersServer,
  waitForUsers,
} from './admin-page.test-helpers.tsx';

describe('filters and search', () => {
  it('puts the Verified and Plan filters in the address and the request, back on page 1', async () => {
    const users = makeUsers(40, (index) => ({
      verified: index % 2 === 0,
      subscriptionPlan: index % 4 === 0 ? 'growth' : 'starter',
    }));
    const { app, lastRequest } = await openAdmin('/admin?page=2', usersServer(users));
    await waitForUsers();
    expect(lastRequest()).toMatchObject({ page: '2' });

    await app.user.selectOptions(screen.getByRole('combobox', { name: 'Verified' }), 'Unverified');
    await waitFor(() => expect(app.location()).toBe('/admin?verified=false'));
    await waitFor(() => expect(lastRequest()).toMatchObject({ verified: 'false', page: '1' }));
    expect(await screen.findByText('20 users')).toBeInTheDocument();

    await app.user.selectOptions(screen.getByRole('combobox', { name: 'Verified' }), 'Verified');
    await app.user.selectOptions(screen.getByRole('combobox', { name: 'Plan' }), 'Growth Plan');
    await waitFor(() => expect(app.location()).toBe('/admin?verified=true&plan=growth'));
    await waitFor(() =>
      expect(lastRequest()).toEqual({
        verified: 'true',
        plan: 'growth',
        sort: 'createdAt',
        order: 'desc',
        page: '1',
        pageSize: '25',
      }),
    );
    expect(await screen.findByText('10 users')).toBeInTheDocument();

    // "All" leaves the address again.
    await app.user.selectOptions(screen.getByRole('combobox', { name: 'Plan' }), 'All');
    await app.user.selectOptions(screen.getByRole('combobox', { name: 'Verified' }), 'All');
    await waitFor(() => expect(app.location()).toBe('/admin'));
    expect(await screen.findByText('40 users')).toBeInTheDocument();
  });

  it('searches a moment after typing stops, once, and resets the page', async () => {
    const users = makeUsers(30, (index) => (index === 26 ? { firstName: 'Bella', lastName: 'Rossi' } : {}));
    const { app, requests, lastRequest } = await openAdmin('/admin?page=2', usersServer(users));
    await waitForUsers();
    const before = requests.length;

    await app.user.type(screen.getByRole('searchbox', { name: 'Search' }), '  bella ');
    expect(app.location()).toBe('/admin?page=2');
    await waitFor(() => expect(app.location()).toBe('/admin?search=bella'));
    await waitFor(() => expect(lastRequest()).toMatchObject({ search: 'bella', page: '1' }));
    await waitFor(() => expect(shownNames()).toEqual(['Bella Rossi']));
    expect(requests.slice(before).map((query) => query.get('search'))).toEqual(['bella']);
    expect(screen.getByText('1 user')).toBeInTheDocument();

    // Refining the search replaces its history entry; Back goes to the view before the search.
    await app.user.type(screen.getByRole('searchbox', { name: 'Search' }), 'rossi');
    await waitFor(() => expect(app.location()).toBe('/admin?search=bella+rossi'));
    await app.router.navigate(-1);
    await waitFor(() => expect(app.location()).toBe('/admin?page=2'));
    await waitFor(() => expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue(''));
    await waitFor(() => expect(lastRequest()).toMatchObject({ page: '2' }));
  });

  it('lets Back and Forward move through the views, with the search box following', async () => {
    const users = makeUsers(30, (index) => (index === 0 ? { firstName: 'Zed' } : {}));
    const { app } = await openAdmin('/admin', usersServer(users));
    await waitForUsers();
    await app.user.selectOptions(screen.getByRole('combobox', { name: 'Plan' }), 'Free Trial');
    await waitFor(() => expect(app.location()).toBe('/admin?plan=free_trial'));
    const search = screen.getByRole('searchbox', { name: 'Search' });
    await app.user.type(search, 'zed');
    await waitFor(() => expect(app.location()).toBe('/admin?search=zed&plan=free_trial'));
    await waitFor(() => expect(shownNames()).toEqual(['Zed Test']));

    await app.router.navigate(-1);
    await waitFor(() => expect(app.location()).toBe('/admin?plan=free_trial'));
    await waitFor(() => expect(search).toHaveValue(''));
    await app.router.navigate(-1);
    await waitFor(() => expect(app.location()).toBe('/admin'));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Plan' })).toHaveValue(''));

    await app.router.navigate(2);
    await waitFor(() => expect(app.location()).toBe('/admin?search=zed&plan=free_trial'));
    await waitFor(() => expect(search).toHaveValue('zed'));
    expect(screen.getByRole('combobox', { name: 'Plan' })).toHaveValue('free_trial');
    await waitFor(() => expect(shownNames()).toEqual(['Zed Test']));
  });

  it('says No users match and clears every filter with one button', async () => {
    const { app, lastRequest } = await openAdmin('/admin?plan=growth&sort=email', usersServer(makeUsers(3)));
    expect(await screen.findByText('No users match.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();

    await app.user.type(screen.getByRole('searchbox', { name: 'Search' }), 'nobody');
    await waitFor(() => expect(lastRequest()).toMatchObject({ search: 'nobody' }));

    await app.user.click(screen.getByRole('button', { name: 'Clear filters' }));
    // Filters go; the chosen sort stays.
    await waitFor(() => expect(app.location()).toBe('/admin?sort=email'));
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('');
    expect(screen.getByRole('combobox', { name: 'Plan' })).toHaveValue('');
    await waitFor(() => expect(shownNames()).toHaveLength(3));
    expect(lastRequest()).toEqual({ sort: 'email', order: 'asc', page: '1', pageSize: '25' });
  });

  it('offers no Clear filters button when nothing is filtered', async () => {
    await openAdmin('/admin', usersServer([]));
    expect(await screen.findByText('No users yet.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
  });
});

describe('sorting by column', () => {
  it('starts newest first, sorts a new column A to Z, and flips it on a second click', async () => {
    const users = makeUsers(3, (index) => ({ firstName: ['Cleo', 'Abe', 'Bo'][index] }));
    const { app, lastRequest } = await openAdmin('/admin?page=1', usersServer(users));
    await waitForUsers();
    expect(columnHeader('Created')).toHaveAttribute('aria-sort', 'descending');
    expect(columnHeader('Name')).not.toHaveAttribute('aria-sort');
    expect(shownNames()).toEqual(['Bo Test', 'Abe Test', 'Cleo Test']);

    await app.user.click(screen.getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(app.location()).toBe('/admin?sort=firstName'));
    expect(columnHeader('Name')).toHaveAttribute('aria-sort', 'ascending');
    expect(columnHeader('Created')).not.toHaveAttribute('aria-sort');
    await waitFor(() => expect(shownNames()).toEqual(['Abe Test', 'Bo Test', 'Cleo Test']));
    expect(lastRequest()).toMatchObject({ sort: 'firstName', order: 'asc' });

    await app.user.click(screen.getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(app.location()).toBe('/admin?sort=firstName&order=desc'));
    expect(columnHeader('Name')).toHaveAttribute('aria-sort', 'descending');
    await waitFor(() => expect(shownNames()).toEqual(['Cleo Test', 'Bo Test', 'Abe Test']));

    // Back to the date column: newest first again, which is the default and leaves the address.
    await app.user.click(screen.getByRole('button', { name: 'Created' }));
    await waitFor(() => expect(app.location()).toBe('/admin'));
    expect(columnHeader('Created')).toHaveAttribute('aria-sort', 'descending');
  });

  it('sorts from the keyboard with Enter and Space', async () => {
    const { app, lastRequest } = await openAdmin();
    await waitForUsers();
    screen.getByRole('button', { name: 'Email' }).focus();
    await app.user.keyboard('{Enter}');
    await waitFor(() => expect(app.location()).toBe('/admin?sort=email'));
    expect(columnHeader('Email')).toHaveAttribute('aria-sort', 'ascending');
    await app.user.keyboard(' ');
    await waitFor(() => expect(app.location()).toBe('/admin?sort=email&order=desc'));
    await waitFor(() => expect(lastRequest()).toMatchObject({ sort: 'email', order: 'desc' }));
    expect(screen.getByRole('button', { name: 'Email' })).toHaveFocus();

    for (const [name, sort] of [
      ['Business', 'businessName'],
      ['Plan', 'subscriptionPlan'],
    ]) {
      await app.user.click(screen.getByRole('button', { name }));
      await waitFor(() => expect(app.location()).toBe(`/admin?sort=${sort}`));
    }
  });

  it('offers every sort in one menu for phones, where the headers are hidden', async () => {
    const { app } = await openAdmin();
    await waitForUsers();
    const menu = screen.getByRole('combobox', { name: 'Sort by' });
    expect(menu).toHaveValue('createdAt:desc');
    await app.user.selectOptions(menu, 'Name, Z to A');
    await waitFor(() => expect(app.location()).toBe('/admin?sort=firstName&order=desc'));
    expect(columnHeader('Name')).toHaveAttribute('aria-sort', 'descending');
  });
});

describe('pagination', () => {
  it('pages with Previous and Next, and changes the rows per page', async () => {
    const { app, lastRequest } = await openAdmin('/admin', usersServer(makeUsers(30)));
    await waitForUsers();
    expect(screen.getByText('30 users')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    expect(shownNames()).toHaveLength(25);
    expect(screen.getByRole('button', { name: 'Previous' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('combobox', { name: 'Rows per page' })).toHaveValue('25');

    const next = screen.getByRole('button', { name: 'Next' });
    await app.user.click(next);
    await waitFor(() => expect(app.location()).toBe('/admin?page=2'));
    expect(lastRequest()).toMatchObject({ page: '2', pageSize: '25' });
    await waitFor(() => expect(shownNames()).toHaveLength(5));
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
    expect(next).toHaveAttribute('aria-disabled', 'true');
    await app.user.click(next);
    expect(app.location()).toBe('/admin?page=2');

    await app.user.selectOptions(screen.getByRole('combobox', { name: 'Rows per page' }), '10');
    await waitFor(() => expect(app.location()).toBe('/admin?pageSize=10'));
    await waitFor(() => expect(screen.getByText('Page 1 of 3')).toBeInTheDocument());
    expect(lastRequest()).toMatchObject({ page: '1', pageSize: '10' });
    expect(shownNames()).toHaveLength(10);

    await app.user.click(screen.getByRole('button', { name: 'Next' }));
    await app.user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(app.location()).toBe('/admin?page=3&pageSize=10'));
    await app.user.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(app.location()).toBe('/admin?page=2&pageSize=10'));
    await waitFor(() => expect(shownNames()[0]).toBe('User20 Test'));

    await app.router.navigate(-1);
    await waitFor(() => expect(app.location()).toBe('/admin?page=3&pageSize=10'));
    await waitFor(() => expect(shownNames()[0]).toBe('User10 Test'));
  });

  it('keeps the current page on screen with a loading note while the next one loads', async () => {
    const users = makeUsers(30);
    const serve = usersServer(users);
    let release: (() => void) | undefined;
    const { app } = await openAdmin('/admin', (query) =>
      query.get('page') === '2'
        ? new Promise<MockAnswer>((resolve) => {
            release = () => resolve(serve(query));
          })
        : serve(query),
    );
    await waitForUsers();
    await app.user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Loading users…');
    expect(shownNames()).toHaveLength(25);
    expect(table()).toHaveClass('admin-users__table--updating');

    release?.();
    await waitFor(() => expect(shownNames()).toHaveLength(5));
    expect(screen.queryByText('Loading users…')).not.toBeInTheDocument();
  });

  it('shows the last page for a link past the end', async () => {
    const { app, lastRequest } = await openAdmin('/admin?page=9', usersServer(makeUsers(30)));
    await waitFor(() => expect(app.location()).toBe('/admin?page=2'));
    await waitFor(() => expect(shownNames()).toHaveLength(5));
    expect(lastRequest()).toMatchObject({ page: '2' });
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
  });

  it('shows a bounded count as "1,000+ users" and keeps Next open past it', async () => {
    // The server counts a broad search only up to the first step of 1,000 past the page (issue 30).
    const boundedServer = (query: URLSearchParams): MockAnswer => {
      const page = Number(query.get('page') ?? 1);
      return {
        body: {
          success: true,
          data: makeUsers(25),
          total: page <= 39 ? 1000 : 2000,
          totalExact: false,
          page,
          pageSize: 25,
          sort: 'createdAt',
          order: 'desc',
        },
      };
    };
    const { app, lastRequest } = await openAdmin('/admin', boundedServer);
    await waitForUsers();
    expect(screen.getByText('1,000+ users')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 41+')).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(lastRequest()).toMatchObject({ page: '2' }));

    // A page beyond the first thousand is not "past the end": it stays, and the count has moved on.
    await app.router.navigate('/admin?page=40');
    await waitFor(() => expect(screen.getByText('Page 40 of 81+')).toBeInTheDocument());
    expect(app.location()).toBe('/admin?page=40');
    expect(screen.getByText('2,000+ users')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toHaveAttribute('aria-disabled', 'false');
  });
});

describe('the address on arrival', () => {
  it('drives the first request and the controls', async () => {
    const path = '/admin?search=rossi&verified=false&plan=growth&sort=email&order=desc&page=2&pageSize=50';
    const { app, requests } = await openAdmin(path);
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(Object.fromEntries(requests[0] ?? [])).toEqual({
      search: 'rossi',
      verified: 'false',
      plan: 'growth',
      sort: 'email',
      order: 'desc',
      page: '2',
      pageSize: '50',
    });
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('rossi');
    expect(screen.getByRole('combobox', { name: 'Verified' })).toHaveValue('false');
    expect(screen.getByRole('combobox', { name: 'Plan' })).toHaveValue('growth');
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toHaveValue('email:desc');
    expect(app.location()).toBe(path);
  });

  it('falls back to the defaults for values it cannot use, and tidies the address', async () => {
    const { app, requests } = await openAdmin(
      '/admin?sort=password&order=sideways&page=-3&pageSize=1000&verified=maybe&plan=platinum',
      usersServer(makeUsers(2)),
    );
    await waitForUsers();
    expect(requests.map((query) => Object.fromEntries(query))).toEqual([
      { sort: 'createdAt', order: 'desc', page: '1', pageSize: '25' },
    ]);
    expect(app.location()).toBe('/admin');
    expect(columnHeader('Created')).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByRole('combobox', { name: 'Verified' })).toHaveValue('');
    expect(screen.getByRole('combobox', { name: 'Plan' })).toHaveValue('');
    expect(screen.getByRole('combobox', { name: 'Rows per page' })).toHaveValue('25');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
