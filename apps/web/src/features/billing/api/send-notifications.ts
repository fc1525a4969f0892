import { billingMessages, type messageResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

type MessageAnswer = z.output<typeof messageResponse>;

/**
 * SPEC §7 Notifications: after each change the client asks the server to email the owner. These
 * three calls share one file because they are one concern (the confirmation email) with one default.
 */
export function sendPlanChangeNotification(body: { oldPlan: string; newPlan: string }) {
  return apiRequest<MessageAnswer>('/notifications/plan-change', {
    method: 'POST',
    body,
    defaultMessage: billingMessages.sendNotificationFailed,
  });
}

export function sendPlanCancelNotification() {
  return apiRequest<MessageAnswer>('/notifications/plan-cancel', {
    method: 'POST',
    defaultMessage: billingMessages.sendNotificationFailed,
  });
}

export function sendBillingUpdateNotification() {
  return apiRequest<MessageAnswer>('/notifications/billing-update', {
    method: 'POST',
    defaultMessage: billingMessages.sendNotificationFailed,
  });
}
