import type { CustomerStatus } from '@waitlist/contract';

export const customerStatusLabels: Record<CustomerStatus, string> = {
  waiting: 'Waiting',
  offered: 'Offered',
  booked: 'Booked',
  removed: 'Removed',
};

export const customerStatusTones = {
  waiting: 'info',
  offered: 'warning',
  booked: 'success',
  removed: 'neutral',
} as const satisfies Record<CustomerStatus, string>;
