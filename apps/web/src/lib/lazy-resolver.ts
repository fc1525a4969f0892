import type { FieldValues, Resolver } from 'react-hook-form';

export type LazyResolver<T extends FieldValues> = Resolver<T> & { preload: () => void };

/**
 * A form resolver fetched on first use (issue 16): the login screen paints without zod and the contract's
 * schemas, which arrive while the visitor types (`preload`, called when the browser is idle) or, at the
 * latest, on the first validation.
 */
export function lazyResolver<T extends FieldValues>(load: () => Promise<Resolver<T>>): LazyResolver<T> {
  let loaded: Promise<Resolver<T>> | undefined;
  const get = () => {
    loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
  const resolver = (async (values, context, options) =>
    (await get())(values, context, options)) as LazyResolver<T>;
  resolver.preload = () => void get().catch(() => {});
  return resolver;
}
