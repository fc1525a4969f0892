import { randomBytes } from 'node:crypto';
import type { BillingProvider } from './index.ts';
import {
  type CustomerRow,
  detachAllCards,
  endLiveSubscriptions,
  insertCustomer,
  listInvoiceRows,
  lockCustomer,
  randomId,
  setDefault,
  updateCustomerDetails,
  voidOpenInvoices,
} from './local-billing.repo.ts';
import type { LocalBillingContext } from './local-billing-clock.ts';
import { toInvoice } from './local-billing-dto.ts';

/** The local customer: created on first use, its billing details, its invoices, and its deletion. */
export function localCustomerCalls({
  db,
  clock,
  publicUrl,
  billingNow,
}: LocalBillingContext): Pick<
  BillingProvider,
  'createCustomer' | 'updateCustomer' | 'listInvoices' | 'deleteCustomer'
> {
  return {
    async createCustomer(user) {
      const id = randomId('cus');
      await insertCustomer(db, {
        id,
        email: user.email,
        name: user.name,
        invoicePrefix: randomBytes(4).toString('hex').toUpperCase(),
        createdAt: clock.now(),
      });
      return id;
    },

    async updateCustomer(customerId, details) {
      const changes: Partial<Pick<CustomerRow, 'name' | 'email' | 'address'>> = {};
      if (details.name !== undefined) changes.name = details.name;
      if (details.email !== undefined) changes.email = details.email;
      if (details.address !== undefined) changes.address = details.address;
      if (Object.keys(changes).length === 0) return;
      await updateCustomerDetails(db, customerId, changes);
    },

    async listInvoices(customerId) {
      return (await listInvoiceRows(db, customerId)).map((row) => toInvoice(row, publicUrl));
    },

    async deleteCustomer(customerId) {
      await db.transaction(async (tx) => {
        await lockCustomer(tx, customerId);
        const now = await billingNow(tx);
        await endLiveSubscriptions(tx, customerId, now);
        await voidOpenInvoices(tx, customerId);
        await detachAllCards(tx, customerId, now);
        await setDefault(tx, customerId, null);
      });
    },
  };
}
