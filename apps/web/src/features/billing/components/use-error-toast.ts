import { useEffect } from 'react';
import { type ToastOptions, useToast } from '../../../components/ui/toast.tsx';

type FailingQuery = { isError: boolean; errorUpdatedAt: number };

/**
 * One error toast each time a query fails (TanStack Query 5 has no onError on queries), with the
 * SPEC §8 toast text for that screen ("Failed to load billing information", title Loading Error).
 */
export function useErrorToast(query: FailingQuery, message: string, options?: ToastOptions) {
  const toast = useToast();
  const { isError, errorUpdatedAt } = query;
  const title = options?.title;
  // biome-ignore lint/correctness/useExhaustiveDependencies: one toast per failure, keyed by its time
  useEffect(() => {
    if (isError) toast.error(message, title ? { title } : undefined);
  }, [isError, errorUpdatedAt]);
}
