import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ServiceBody, serviceResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { servicesKeys } from '../../../lib/services-and-staff.ts';

type ServiceAnswer = z.output<typeof serviceResponse>;

/** POST /services (add) or PUT /services/:id (edit). */
export function saveService({ id, body }: { id?: string; body: ServiceBody }): Promise<ServiceAnswer> {
  return apiRequest<ServiceAnswer>(id ? `/services/${encodeURIComponent(id)}` : '/services', {
    method: id ? 'PUT' : 'POST',
    body,
    defaultMessage: 'Could not save the service',
  });
}

export function useSaveService() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveService,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: servicesKeys.services }),
  });
}
