import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';

/** The business's dedicated text number (issue 5): GET /phone-number and its two actions. */
export type PhoneNumberStatus = 'pending' | 'verified' | 'failed';
export type PhoneNumberState = {
  number: string | null;
  status: PhoneNumberStatus | null;
  error: string | null;
};
type PhoneNumberAnswer = { success: true; data: PhoneNumberState; message?: string };
type RawPhoneNumberAnswer = {
  success: true;
  data?: PhoneNumberState;
  message?: string;
} & Partial<PhoneNumberState>;

/** Reads the state from `data` (SPEC style), or from the top level if the server answers flat. */
function readState(answer: RawPhoneNumberAnswer): PhoneNumberAnswer {
  const state = answer.data ?? answer;
  return {
    success: true,
    message: answer.message,
    data: { number: state.number ?? null, status: state.status ?? null, error: state.error ?? null },
  };
}

export const phoneNumberKey = ['billing', 'phone-number'] as const;

export async function getPhoneNumber(signal?: AbortSignal): Promise<PhoneNumberState> {
  const answer = await apiRequest<RawPhoneNumberAnswer>('/phone-number', {
    defaultMessage: 'Failed to load your text number',
    signal,
  });
  return readState(answer).data;
}

export const phoneNumberQueryOptions = () =>
  queryOptions({ queryKey: phoneNumberKey, queryFn: ({ signal }) => getPhoneNumber(signal) });

export function usePhoneNumber() {
  return useQuery(phoneNumberQueryOptions());
}

export async function requestPhoneNumber(areaCode: string | undefined): Promise<PhoneNumberAnswer> {
  const answer = await apiRequest<RawPhoneNumberAnswer>('/phone-number/request', {
    method: 'POST',
    body: areaCode ? { areaCode } : {},
    defaultMessage: 'Could not request a text number',
  });
  return readState(answer);
}

export async function verifyPhoneNumber(): Promise<PhoneNumberAnswer> {
  const answer = await apiRequest<RawPhoneNumberAnswer>('/phone-number/verify', {
    method: 'POST',
    body: {},
    defaultMessage: 'Could not verify your text number',
  });
  return readState(answer);
}

/** After either action: the section's state and the user (its plivoNumber fields drive badges). */
function useApplyPhoneNumberAnswer() {
  const queryClient = useQueryClient();
  const { refreshUser } = useAuth();
  return async (answer: PhoneNumberAnswer) => {
    queryClient.setQueryData(phoneNumberKey, answer.data);
    await refreshUser();
  };
}

/**
 * Requests a number; with `verifyAtOnce` (the local phone, whose 555-01xx test numbers are verified the
 * moment they are rented) it verifies it in the same step, so the card goes straight to Verified.
 */
export async function requestAndVerifyPhoneNumber({
  areaCode,
  verifyAtOnce,
}: {
  areaCode?: string;
  verifyAtOnce: boolean;
}): Promise<PhoneNumberAnswer> {
  const requested = await requestPhoneNumber(areaCode);
  if (!verifyAtOnce || requested.data.status !== 'pending') return requested;
  return verifyPhoneNumber();
}

export function useRequestPhoneNumber() {
  const onSuccess = useApplyPhoneNumberAnswer();
  return useMutation({ mutationFn: requestAndVerifyPhoneNumber, onSuccess });
}

export function useVerifyPhoneNumber() {
  const onSuccess = useApplyPhoneNumberAnswer();
  return useMutation({ mutationFn: () => verifyPhoneNumber(), onSuccess });
}
