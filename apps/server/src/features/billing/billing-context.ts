import { billingMessages, type Subscription } from '@waitlist/contract';
import type { Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import { AppError, BadRequest, NotFound } from '../../lib/errors.ts';
import { PaymentError } from '../../providers/billing/index.ts';
import { isLocalBillingProvider, type LocalBillingProvider } from '../../providers/billing/local.ts';
import type { BillingServiceDeps } from './billing.service.ts';
import { createSubscriptionSync, type SyncSubscription } from './billing-sync.ts';

/** The provider's refusals as API errors; their messages are written for the owner. */
function toAppError(error: PaymentError): AppError {
  if (error.code === 'not_found') return new NotFound(error.message);
  if (error.code === 'no_payment_method') return new BadRequest(billingMessages.noPaymentMethod);
  return new BadRequest(error.message);
}

export async function providerCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PaymentError) throw toAppError(error);
    throw error;
  }
}

/** What each part of the billing service shares: its deps, the owner's customer, the sync and the outbox. */
export interface BillingContext extends BillingServiceDeps {
  /** The local provider when billing is local (test cards, hosted pages, the billing clock). */
  local: LocalBillingProvider | undefined;
  planUrl: string;
  billingUrl: string;
  /** 503 notConfigured while the provider is chosen but incomplete. */
  requireConfigured(): void;
  /** 404 unless billing is local. */
  requireLocal(): LocalBillingProvider;
  /** Runs `work` in one transaction; email it queued is delivered only if the transaction commits. */
  withOutbox<T>(work: (tx: Executor) => Promise<T>): Promise<T>;
  /** The provider's customer for a user, created the first time (two first calls at once keep one). */
  customerOf(user: UserRow): Promise<string>;
  /** The customer id when the user has one; reads never create a customer. */
  existingCustomer(user: UserRow): Promise<string | null>;
  syncSubscription: SyncSubscription;
  /** Reads the subscription from the provider and syncs the user's fields to it. */
  refresh(customerId: string): Promise<Subscription | null>;
}

export function createBillingContext(deps: BillingServiceDeps): BillingContext {
  const { db, provider, users } = deps;
  const local = isLocalBillingProvider(provider) ? provider : undefined;
  const planUrl = `${deps.publicUrl}/account?tab=plan`;
  const billingUrl = `${deps.publicUrl}/account?tab=billing`;
  const syncSubscription = createSubscriptionSync({ ...deps, planUrl, billingUrl });

  async function customerOf(user: UserRow): Promise<string> {
    if (user.billingCustomerId) return user.billingCustomerId;
    const fresh = await users.findUserById(db, user.id);
    if (fresh?.billingCustomerId) return fresh.billingCustomerId;
    const customerId = await providerCall(() =>
      provider.createCustomer({
        id: user.id,
        email: user.email,
        name: `${user.firstName} ${user.lastName}`.trim(),
      }),
    );
    if (await users.setBillingCustomerIdIfMissing(db, user.id, customerId)) return customerId;
    const winner = await users.findUserById(db, user.id);
    if (!winner?.billingCustomerId) throw new NotFound(billingMessages.noSubscription);
    return winner.billingCustomerId;
  }

  return {
    ...deps,
    local,
    planUrl,
    billingUrl,
    requireConfigured() {
      if (!provider.configured) throw new AppError(503, billingMessages.notConfigured);
    },
    requireLocal() {
      if (!local) throw new NotFound(billingMessages.notConfigured);
      return local;
    },
    async withOutbox(work) {
      const result = await db.transaction(work);
      deps.onOutboxWrite();
      return result;
    },
    customerOf,
    async existingCustomer(user) {
      return user.billingCustomerId ?? (await users.findUserById(db, user.id))?.billingCustomerId ?? null;
    },
    syncSubscription,
    async refresh(customerId) {
      const subscription = await providerCall(() => provider.getSubscription(customerId));
      await syncSubscription(customerId, subscription);
      return subscription;
    },
  };
}
