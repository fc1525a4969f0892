import { AccountPage } from '../features/account/pages/account-page.tsx';
import { BillingTab } from '../features/billing/components/billing-tab.tsx';
import { PlanTab } from '../features/billing/components/plan-tab.tsx';
import { GetStartedChecklist } from '../features/onboarding/components/get-started-checklist.tsx';

/** /account with the billing feature's Plan and Billing tabs and the get-started checklist handed in (a lazy route of its own). */
export function AccountRoute() {
  return (
    <AccountPage planPanel={<PlanTab />} billingPanel={<BillingTab />} checklist={<GetStartedChecklist />} />
  );
}
