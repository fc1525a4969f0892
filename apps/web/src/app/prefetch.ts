import { matchRoutes, type RouteObject } from 'react-router';

/**
 * Fetches the chunks of the page at `path` ahead of a click (issue 16): calling a route's `lazy` starts the
 * import; the browser keeps the module, so the navigation that follows finds it ready. Unknown paths and
 * pages already fetched cost nothing.
 */
export function prefetchRoute(routes: RouteObject[], path: string) {
  for (const { route } of matchRoutes(routes, path) ?? []) {
    if (typeof route.lazy === 'function') void route.lazy().catch(() => {});
  }
}

const internalHref = (target: EventTarget | null): string | null => {
  const link = target instanceof Element ? target.closest('a[href]') : null;
  const href = link?.getAttribute('href');
  return href?.startsWith('/') && !href.startsWith('//') ? href.split(/[?#]/)[0]! : null;
};

/**
 * Prefetches a link's page when the pointer rests on it or it takes focus, and, once the browser is idle,
 * every page the current screen links to. Returns the function that stops listening.
 */
export function startPrefetching(routes: RouteObject[]) {
  const seen = new Set<string>();
  const prefetch = (path: string | null) => {
    if (!path || seen.has(path)) return;
    seen.add(path);
    prefetchRoute(routes, path);
  };
  const onIntent = (event: Event) => prefetch(internalHref(event.target));
  document.addEventListener('pointerover', onIntent, { passive: true });
  document.addEventListener('focusin', onIntent);
  const idle = (callback: () => void) =>
    'requestIdleCallback' in window
      ? window.requestIdleCallback(callback, { timeout: 4000 })
      : setTimeout(callback, 2000);
  const prefetchLinks = () => {
    for (const link of document.querySelectorAll('a[href^="/"]')) prefetch(internalHref(link));
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onLoad = () => {
    timer = setTimeout(() => idle(prefetchLinks), 1000);
  };
  if (document.readyState === 'complete') onLoad();
  else window.addEventListener('load', onLoad, { once: true });
  return () => {
    document.removeEventListener('pointerover', onIntent);
    document.removeEventListener('focusin', onIntent);
    window.removeEventListener('load', onLoad);
    clearTimeout(timer);
  };
}

/**
 * Loads every lazy route now and puts what it gives on the route itself, so the router renders those
 * pages without waiting. The tests use it (they exercise the pages, not the chunk loading, which
 * prefetch.test.ts covers); the browser keeps the routes lazy.
 */
export async function resolveLazyRoutes(routes: RouteObject[]): Promise<void> {
  await Promise.all(
    routes.map(async (route) => {
      if (typeof route.lazy === 'function') {
        Object.assign(route, await route.lazy());
        route.lazy = undefined;
      }
      if (route.children) await resolveLazyRoutes(route.children);
    }),
  );
}
