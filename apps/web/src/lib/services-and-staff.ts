import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Service, StaffMember, servicesResponse, staffListResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from './api-client.ts';

/**
 * The business's services and staff (issue 26), read by the services page, the customer form and the
 * open-slot form. Shared (lib/) because three features ask, and one cache key each keeps them in step.
 */
export const servicesKeys = {
  services: ['services', 'list'] as const,
  staff: ['staff', 'list'] as const,
};

/** GET /services */
export async function getServices(signal?: AbortSignal): Promise<Service[]> {
  const answer = await apiRequest<z.output<typeof servicesResponse>>('/services', {
    defaultMessage: 'Failed to load your services',
    signal,
  });
  return answer.data;
}

/** GET /staff */
export async function getStaff(signal?: AbortSignal): Promise<StaffMember[]> {
  const answer = await apiRequest<z.output<typeof staffListResponse>>('/staff', {
    defaultMessage: 'Failed to load your staff',
    signal,
  });
  return answer.data;
}

export const servicesQueryOptions = () =>
  queryOptions({ queryKey: servicesKeys.services, queryFn: ({ signal }) => getServices(signal) });
export const staffQueryOptions = () =>
  queryOptions({ queryKey: servicesKeys.staff, queryFn: ({ signal }) => getStaff(signal) });

export const useServices = () => useQuery(servicesQueryOptions());
export const useStaff = () => useQuery(staffQueryOptions());

/**
 * The lists a form offers: empty while loading or when they cannot be read, so a business without services
 * (or an older server) keeps the simple form.
 */
export function useServiceChoices() {
  const services = useServices();
  const staff = useStaff();
  return { services: services.data ?? [], staff: staff.data ?? [] };
}

/** $45.00 from cents. */
export const dollars = (cents: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);

/** "45 min", "1 h 30 min". */
export function minutesLabel(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return `${Math.floor(minutes / 60)} h${rest ? ` ${rest} min` : ''}`;
}
