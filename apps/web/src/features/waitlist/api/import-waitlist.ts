import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ImportRow, importPreviewResponse, importResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { waitlistKeys } from './waitlist-keys.ts';

export type ImportPreview = { rows: ImportRow[]; valid: number; invalid: number };
type PreviewAnswer = z.output<typeof importPreviewResponse>;
type ImportAnswer = z.output<typeof importResponse>;

/** POST /waitlist/import/preview: what each CSV line would become, with its error if any. */
export async function previewImport(csv: string): Promise<ImportPreview> {
  const answer = await apiRequest<PreviewAnswer>('/waitlist/import/preview', {
    method: 'POST',
    body: { csv },
    defaultMessage: 'Could not read the CSV file',
  });
  return answer.data;
}

/** POST /waitlist/import: adds the valid rows. */
export function importWaitlist(csv: string) {
  return apiRequest<ImportAnswer>('/waitlist/import', {
    method: 'POST',
    body: { csv },
    defaultMessage: 'Could not import the customers',
  });
}

export const usePreviewImport = () => useMutation({ mutationFn: previewImport });

export function useImportWaitlist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importWaitlist,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: waitlistKeys.all }),
  });
}
