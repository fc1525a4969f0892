import { pushMessages } from '@waitlist/contract';
import type { CustomerRow } from '../../db/rows.ts';
import { firstName } from '../../lib/format.ts';
import { pushTime } from '../../lib/time-zone.ts';
import type { ClaimTarget } from '../openings/openings.service.ts';
import type { ActedOn, ConversationDeps, Reply } from './conversation.service.ts';
import type { ReplyState } from './reply-policy.ts';

/**
 * The winner cannot come (issue 26): the slot goes back to the next customers in the plan's order (openings'
 * release), the customer hears it was let go (texted by the release, unless they opted out), the owner's phone hears who backed out. A slot that cannot be
 * given back (started, or released already) answers null: the text then does what the decision's
 * `otherwise` says.
 */
export async function onBackOut(
  deps: ConversationDeps,
  reply: Reply & { customer: CustomerRow; target: ClaimTarget | undefined },
  state: ReplyState,
): Promise<ActedOn | null> {
  const { tx, userId, customer, now } = reply;
  const opening = reply.target?.opening;
  const released =
    opening !== undefined &&
    (await deps.claims.backOut(tx, { userId, customerId: customer.id, openingId: opening.id, now }));
  // The customer's "we've let that slot go" is queued by the release, in its transaction (issue 39).
  if (!released) return null;
  await deps.notifyOwner?.(
    tx,
    userId,
    {
      title: pushMessages.backedOutTitle(
        firstName(customer.name),
        pushTime(opening.startsAt, reply.business.timeZone),
      ),
      body: pushMessages.backedOutBody,
      url: `/openings/${opening.id}`,
    },
    now,
  );
  return {
    ...state,
    customer: { ...state.customer, status: 'waiting' },
    offer: { openingOpen: true, won: false, told: false },
    action: 'reply',
  };
}
