import { describe, expect, it } from 'vitest';
import {
  defaultUsersView,
  isFiltered,
  knownPages,
  nextSort,
  pageCount,
  readUsersView,
  usersCountLabel,
  usersRequestQuery,
  writeUsersView,
} from './users-view.ts';

const read = (query: string) => readUsersView(new URLSearchParams(query));

describe('the view in the address', () => {
  it('is the default view for a plain /admin: newest first, page 1 of 25', () => {
    expect(read('')).toEqual({
      search: '',
      verified: '',
      plan: '',
      sort: 'createdAt',
      order: 'desc',
      page: 1,
      pageSize: 25,
    });
    expect(writeUsersView(defaultUsersView).toString()).toBe('');
  });

  it('reads every value and writes back only what differs from the defaults', () => {
    const query = 'search=rossi&verified=false&plan=growth&sort=email&order=desc&page=3&pageSize=50';
    const view = read(query);
    expect(view).toEqual({
      search: 'rossi',
      verified: 'false',
      plan: 'growth',
      sort: 'email',
      order: 'desc',
      page: 3,
      pageSize: 50,
    });
    expect(writeUsersView(view).toString()).toBe(query);
    expect(writeUsersView({ ...view, order: 'asc', page: 1, pageSize: 25 }).toString()).toBe(
      'search=rossi&verified=false&plan=growth&sort=email',
    );
  });

  it('gives a column its natural order when the address names only the column', () => {
    expect(read('sort=firstName').order).toBe('asc');
    expect(read('sort=createdAt').order).toBe('desc');
    expect(read('order=asc')).toMatchObject({ sort: 'createdAt', order: 'asc' });
    expect(writeUsersView(read('order=asc')).toString()).toBe('order=asc');
  });

  it.each([
    ['sort=password', { sort: 'createdAt', order: 'desc' }],
    ['sort=email&order=sideways', { sort: 'email', order: 'asc' }],
    ['verified=maybe', { verified: '' }],
    ['verified=TRUE', { verified: '' }],
    ['plan=enterprise', { plan: '' }],
    ['page=0', { page: 1 }],
    ['page=-2', { page: 1 }],
    ['page=2.5', { page: 1 }],
    ['page=abc', { page: 1 }],
    ['pageSize=1000', { pageSize: 25 }],
    ['pageSize=30', { pageSize: 25 }],
    ['pageSize=', { pageSize: 25 }],
  ])('falls back to the default for %s', (query, expected) => {
    expect(read(query)).toEqual({ ...defaultUsersView, ...expected });
  });

  it('trims the search and cuts it to what the API accepts', () => {
    expect(read('search=%20%20bella%20').search).toBe('bella');
    expect(read(`search=${'x'.repeat(150)}`).search).toHaveLength(100);
  });
});

describe('the request', () => {
  it('always names sort, order, page and size, and only the filters that are set', () => {
    expect(usersRequestQuery(defaultUsersView)).toEqual({
      sort: 'createdAt',
      order: 'desc',
      page: '1',
      pageSize: '25',
    });
    expect(
      usersRequestQuery({ ...defaultUsersView, search: '555', verified: 'true', plan: 'starter' }),
    ).toMatchObject({ search: '555', verified: 'true', plan: 'starter' });
  });
});

describe('sorting and paging', () => {
  it('starts a new column in its natural order and flips the current one', () => {
    expect(nextSort(defaultUsersView, 'email')).toEqual({ sort: 'email', order: 'asc' });
    expect(nextSort(defaultUsersView, 'createdAt')).toEqual({ sort: 'createdAt', order: 'asc' });
    expect(nextSort({ ...defaultUsersView, sort: 'email', order: 'asc' }, 'email')).toEqual({
      sort: 'email',
      order: 'desc',
    });
    expect(nextSort({ ...defaultUsersView, sort: 'email', order: 'desc' }, 'createdAt')).toEqual({
      sort: 'createdAt',
      order: 'desc',
    });
  });

  it('counts at least one page', () => {
    expect(pageCount(0, 25)).toBe(1);
    expect(pageCount(25, 25)).toBe(1);
    expect(pageCount(26, 25)).toBe(2);
  });

  it('calls search, verified and plan filters, not sort or page', () => {
    expect(isFiltered(defaultUsersView)).toBe(false);
    expect(isFiltered({ ...defaultUsersView, sort: 'email', page: 4 })).toBe(false);
    expect(isFiltered({ ...defaultUsersView, plan: 'growth' })).toBe(true);
  });
});

describe('the count above the table', () => {
  it('says how many users match, with a plus when the count stopped at its bound', () => {
    expect(usersCountLabel(0, true)).toBe('0 users');
    expect(usersCountLabel(1, true)).toBe('1 user');
    expect(usersCountLabel(2500, true)).toBe('2,500 users');
    expect(usersCountLabel(1000, false)).toBe('1,000+ users');
  });

  it('knows one more page exists past a bounded count', () => {
    expect(knownPages(1000, true, 25)).toBe(40);
    expect(knownPages(1000, false, 25)).toBe(41);
    expect(knownPages(0, true, 25)).toBe(1);
  });
});
