import { isClaim } from '@waitlist/contract';

/** The reply words the server acts on (DESIGN.md §5), to label them in the conversation. */
const keywordLabels: Record<string, { label: string; tone: 'success' | 'danger' | 'info' }> = {
  YES: { label: 'YES · claims an opening', tone: 'success' },
  STOP: { label: 'STOP · opted out', tone: 'danger' },
  STOPALL: { label: 'STOPALL · opted out', tone: 'danger' },
  UNSUBSCRIBE: { label: 'UNSUBSCRIBE · opted out', tone: 'danger' },
  CANCEL: { label: 'CANCEL · opted out', tone: 'danger' },
  END: { label: 'END · opted out', tone: 'danger' },
  QUIT: { label: 'QUIT · opted out', tone: 'danger' },
  START: { label: 'START · opted back in', tone: 'info' },
  UNSTOP: { label: 'UNSTOP · opted back in', tone: 'info' },
  HELP: { label: 'HELP · sent your business info', tone: 'info' },
};

/**
 * The keyword a reply is, whatever its case, spaces or punctuation ("Stop." is STOP); any claim the server
 * reads as a yes ("  yes! ", "Yes please", "yep": packages/contract/src/replies.ts) shows as YES.
 */
export function replyKeyword(body: string) {
  const word = body.replace(/[^\p{L}\p{N}]/gu, '').toUpperCase();
  return keywordLabels[word] ?? (isClaim(body) ? keywordLabels.YES! : null);
}
