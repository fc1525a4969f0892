import { isWebPage, webPagePatterns } from '@waitlist/contract';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from './routes.tsx';

function routePaths(list: RouteObject[]): string[] {
  return list.flatMap((route) => [
    ...(route.path ? [route.path] : []),
    ...(route.children ? routePaths(route.children) : []),
  ]);
}

describe('the server knows every page of the router (an unknown address answers 404)', () => {
  const paths = routePaths(routes).filter((path) => path !== '*');

  it('every route is in the contract list, so reloading it answers 200', () => {
    expect(paths.length).toBeGreaterThan(15);
    for (const path of paths) expect(webPagePatterns, path).toContain(path);
  });

  it('matches real addresses of those routes, and not others', () => {
    expect(isWebPage('/openings/6b1f1c1e-1d2a-4c1b-9a55-0c7e2f1a9d10')).toBe(true);
    expect(isWebPage('/reset-password/abc')).toBe(true);
    expect(isWebPage('/account/')).toBe(true);
    expect(isWebPage('/account/settings')).toBe(false);
    expect(isWebPage('/nope')).toBe(false);
  });
});
