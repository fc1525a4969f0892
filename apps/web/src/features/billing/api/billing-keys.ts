import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useAuth } from '../../../lib/auth.tsx';

/** Query keys of the billing feature; everything under ['billing'] is refetched after a change. */
export const billingKeys = {
  all: ['billing'] as const,
  pricing: ['billing', 'pricing'] as const,
  subscription: ['billing', 'subscription'] as const,
  paymentMethods: ['billing', 'payment-methods'] as const,
  invoices: ['billing', 'invoices'] as const,
};

/** After a plan or card change: the user (its plan fields are a cache of the subscription) and billing data. */
export function useReloadBilling() {
  const queryClient = useQueryClient();
  const { refreshUser } = useAuth();
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: billingKeys.subscription }),
      queryClient.invalidateQueries({ queryKey: billingKeys.invoices }),
      queryClient.invalidateQueries({ queryKey: billingKeys.paymentMethods }),
      refreshUser(),
    ]);
  }, [queryClient, refreshUser]);
}
