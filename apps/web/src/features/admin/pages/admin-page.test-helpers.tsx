import { screen, within } from '@testing-library/react';
import { adminCountBound, type User } from '@waitlist/contract';
import { makeUser } from '../../../test/fixtures.ts';
import { type MockAnswer, mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

export const admin = makeUser({
  id: 'a0000000-0000-4000-8000-000000000001',
  firstName: 'Ada',
  lastName: 'Admin',
  email: 'ada@admin.test',
  admin: true,
});

/** The users the fake server holds, newest first: created one day apart in 2030. */
export function makeUsers(count: number, overrides: (index: number) => Partial<User> = () => ({})): User[] {
  return Array.from({ length: count }, (_, index) => {
    const number = String(index + 1).padStart(2, '0');
    return makeUser({
      id: `b0000000-0000-4000-8000-0000000000${number}`,
      firstName: `User${number}`,
      lastName: 'Test',
      email: `user${number}@example.com`,
      businessName: `Business ${number}`,
      createdAt: new Date(Date.UTC(2030, 0, 1 + index, 12)).toISOString(),
      ...overrides(index),
    });
  });
}

export type UsersAnswer = MockAnswer | Promise<MockAnswer>;

/**
 * A stand-in for GET /admin/users over a fixed list: filters, search, sort and paging like the server,
 * so the screen can be driven end to end. `answer` replaces it for error and slow-answer cases.
 */
export function usersServer(all: User[]) {
  return (query: URLSearchParams): MockAnswer => {
    const search = (query.get('search') ?? '').toLowerCase();
    const sort = (query.get('sort') ?? 'createdAt') as keyof User;
    const order = query.get('order') ?? (sort === 'createdAt' ? 'desc' : 'asc');
    const page = Number(query.get('page') ?? 1);
    const pageSize = Number(query.get('pageSize') ?? 25);
    const matching = all
      .filter((user) => !query.get('verified') || String(user.verified) === query.get('verified'))
      .filter((user) => !query.get('plan') || user.subscriptionPlan === query.get('plan'))
      .filter((user) =>
        `${user.firstName} ${user.lastName} ${user.email} ${user.businessName} ${user.businessPhone}`
          .toLowerCase()
          .includes(search),
      )
      .sort((a, b) => String(a[sort]).localeCompare(String(b[sort])) * (order === 'asc' ? 1 : -1));
    const bound = adminCountBound(page, pageSize);
    return {
      body: {
        success: true,
        data: matching.slice((page - 1) * pageSize, page * pageSize),
        total: Math.min(matching.length, bound),
        totalExact: matching.length <= bound,
        page,
        pageSize,
        sort,
        order,
      },
    };
  };
}

export async function openAdmin(
  path = '/admin',
  answer: (query: URLSearchParams) => UsersAnswer = usersServer(makeUsers(3)),
) {
  /** The query string of every GET /admin/users, in order. */
  const requests: URLSearchParams[] = [];
  const api = mockSignedIn(admin, {
    'GET /admin/users': () => {
      // The call being answered is the latest one fetch received.
      const url = new URL(String(api.fetchMock.mock.calls.at(-1)?.[0]), 'http://localhost');
      requests.push(url.searchParams);
      return answer(url.searchParams);
    },
  });
  const app = renderApp(path, { token: 'tok' });
  await screen.findByRole('heading', { level: 1, name: 'Admin' });
  const lastRequest = () => Object.fromEntries(requests.at(-1) ?? []);
  return { app, api, requests, lastRequest };
}

export const table = () => screen.getByRole('table', { name: 'Users' });
export const rowOf = (name: string) => screen.getByRole('rowheader', { name }).closest('tr') as HTMLElement;
export const shownNames = () =>
  within(table())
    .getAllByRole('rowheader')
    .map((cell) => cell.textContent);
export const columnHeader = (name: string) => screen.getByRole('columnheader', { name });
export const waitForUsers = () => screen.findByRole('table', { name: 'Users' });
