import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { webhookEvents } from '../../db/schema.ts';

/** Provider webhook events applied once (features/auth's repo owns the users table and its subscription cache). */

/** Whether a provider webhook event was already applied. */
export async function webhookEventSeen(executor: Executor, id: string) {
  const seen = await executor
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(eq(webhookEvents.id, id));
  return seen.length > 0;
}

/** Records a webhook event once; false when it was recorded already (a concurrent delivery won). */
export async function recordWebhookEvent(
  executor: Executor,
  event: { id: string; type: string; receivedAt: Date },
) {
  const recorded = await executor
    .insert(webhookEvents)
    .values(event)
    .onConflictDoNothing({ target: webhookEvents.id })
    .returning({ id: webhookEvents.id });
  return recorded.length > 0;
}
