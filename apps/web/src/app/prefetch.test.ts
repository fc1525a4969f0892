import type { RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { prefetchRoute, resolveLazyRoutes, startPrefetching } from './prefetch.ts';

const Page = () => null;
const lazyRoutes = () => {
  const account = vi.fn(async () => ({ Component: Page }));
  const admin = vi.fn(async () => ({ Component: Page }));
  const routes: RouteObject[] = [
    {
      path: '/',
      children: [
        { path: '/account', lazy: account },
        { path: '/admin', lazy: admin },
      ],
    },
  ];
  return { routes, account, admin };
};

describe('prefetchRoute', () => {
  it("starts loading the matched page's chunk and no other", () => {
    const { routes, account, admin } = lazyRoutes();
    prefetchRoute(routes, '/account');
    expect(account).toHaveBeenCalledTimes(1);
    expect(admin).not.toHaveBeenCalled();
  });

  it('does nothing for a path no route matches', () => {
    const { routes, account, admin } = lazyRoutes();
    prefetchRoute(routes, '/nowhere');
    expect(account).not.toHaveBeenCalled();
    expect(admin).not.toHaveBeenCalled();
  });
});

describe('startPrefetching', () => {
  it('loads a page when the pointer rests on a link to it, once', () => {
    const { routes, account, admin } = lazyRoutes();
    document.body.innerHTML = '<a href="/account?tab=billing"><span>Billing</span></a>';
    const stop = startPrefetching(routes);
    const inner = document.querySelector('span')!;
    inner.dispatchEvent(new Event('pointerover', { bubbles: true }));
    inner.dispatchEvent(new Event('pointerover', { bubbles: true }));
    expect(account).toHaveBeenCalledTimes(1);
    expect(admin).not.toHaveBeenCalled();
    stop();
  });

  it('loads a page when its link takes the keyboard focus', () => {
    const { routes, admin } = lazyRoutes();
    document.body.innerHTML = '<a href="/admin">Admin</a>';
    const stop = startPrefetching(routes);
    document.querySelector('a')!.focus();
    expect(admin).toHaveBeenCalledTimes(1);
    stop();
  });

  it('ignores links to other sites', () => {
    const { routes, account } = lazyRoutes();
    document.body.innerHTML = '<a href="//elsewhere.example/account">x</a>';
    const stop = startPrefetching(routes);
    document.querySelector('a')!.dispatchEvent(new Event('pointerover', { bubbles: true }));
    expect(account).not.toHaveBeenCalled();
    stop();
  });

  it('prefetches every page the screen links to once the browser is idle after load', () => {
    vi.useFakeTimers();
    const { routes, account, admin } = lazyRoutes();
    document.body.innerHTML = '<a href="/account">Account</a><a href="/admin">Admin</a>';
    const stop = startPrefetching(routes);
    expect(account).not.toHaveBeenCalled();
    vi.advanceTimersByTime(7000);
    expect(account).toHaveBeenCalledTimes(1);
    expect(admin).toHaveBeenCalledTimes(1);
    stop();
  });
});

describe('resolveLazyRoutes', () => {
  it('puts each lazy page on its route, so it renders without waiting', async () => {
    const { routes } = lazyRoutes();
    await resolveLazyRoutes(routes);
    const [account, admin] = routes[0]!.children!;
    expect(account!.lazy).toBeUndefined();
    expect(account!.Component).toBe(Page);
    expect(admin!.Component).toBe(Page);
  });
});
