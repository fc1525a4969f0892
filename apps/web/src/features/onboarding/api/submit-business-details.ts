import { useMutation } from '@tanstack/react-query';
import { type BusinessVerificationBody, type messageResponse, screenMessages } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

type MessageAnswer = z.output<typeof messageResponse>;

/** POST /auth/business-verification; the phone goes out as its 10 digits. */
export function submitBusinessDetails(body: {
  businessName: string;
  businessPhone: string;
}): Promise<MessageAnswer> {
  const payload: BusinessVerificationBody = body;
  return apiRequest<MessageAnswer>('/auth/business-verification', {
    method: 'POST',
    body: payload,
    defaultMessage: screenMessages.businessDetailsFailed,
  });
}

export function useSubmitBusinessDetails() {
  return useMutation({ mutationFn: submitBusinessDetails });
}
