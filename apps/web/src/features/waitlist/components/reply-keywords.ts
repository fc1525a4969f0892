import { normalizeReply, type ReplyKeyword, readReply } from '@waitlist/contract';

type Tone = 'success' | 'danger' | 'info';

/**
 * What the server did with a keyword (DESIGN.md §5), as the owner reads it beside the reply. JOIN is not
 * labelled: from a customer it is free text for the owner; only a stranger's JOIN starts a join request.
 */
const keywordLabels: Partial<Record<ReplyKeyword, { action: string; tone: Tone }>> = {
  stop: { action: 'opted out', tone: 'danger' },
  start: { action: 'opted back in', tone: 'info' },
  help: { action: 'sent your business info', tone: 'info' },
};
const claimLabel = { label: 'YES · claims an opening', tone: 'success' as Tone };

/**
 * The label of a reply the server acts on, read as the server reads it (`readReply` in the contract's
 * catalogue of customer words): "Stop." shows as "STOP · opted out", any claim ("  yes! ", "Yes please",
 * "yep") as YES; anything else, null.
 */
export function replyKeyword(body: string): { label: string; tone: Tone } | null {
  const reading = readReply(body);
  const known = reading.keyword ? keywordLabels[reading.keyword] : undefined;
  if (known) return { label: `${normalizeReply(body).toUpperCase()} · ${known.action}`, tone: known.tone };
  return reading.claim ? claimLabel : null;
}
