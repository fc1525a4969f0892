import type { PaymentMethod, PlanChangePreview } from '@waitlist/contract';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { formatDate, timestampToDate } from '../utils/billing-time.ts';
import { cardLabel } from '../utils/cards.ts';
import type { ChangeTiming } from '../utils/plans.ts';
import { formatMoney } from '../utils/pricing.ts';

/**
 * What confirming charges today, from the server's preview (issue 27), said before the owner confirms:
 * "You'll be charged $33.33 today…", or "No charge today; …" for a downgrade.
 */
export function chargeSentence(
  preview: PlanChangePreview,
  timing: ChangeTiming,
  card: PaymentMethod | undefined,
): string {
  const on = card ? ` to ${cardLabel(card)}` : '';
  switch (preview.effective) {
    case 'now': {
      if (preview.amountDue <= 0) return 'No charge today; your new plan starts right away.';
      const amount = formatMoney(preview.amountDue, preview.currency);
      return timing === 'now_prorated'
        ? `You'll be charged ${amount} today${on}: the prorated difference for the rest of this billing period. The change applies now.`
        : `You'll be charged ${amount} today${on}, and your new plan starts right away.`;
    }
    case 'period_end': {
      const at = timestampToDate(preview.effectiveAt);
      return `No charge today; the change applies at the end of your billing period${at ? `, on ${formatDate(at)}` : ''}, and you keep your current plan until then.`;
    }
    case 'none':
      return 'This is your current plan; nothing changes.';
  }
}

/** Without the preview (it failed): what the change does, in words, without the exact amount. */
export function timingSentence(
  timing: ChangeTiming,
  price: { amount: number; currency: string },
  periodEnd: Date | null,
  card: PaymentMethod | undefined,
): string {
  const on = card ? ` to ${cardLabel(card)}` : '';
  switch (timing) {
    case 'now_full':
      return `${formatMoney(price.amount, price.currency)} is charged today${on}, and your new plan starts right away.`;
    case 'now_prorated':
      return `The change applies now. The prorated difference for the rest of this billing period is charged today${on}.`;
    case 'period_end':
      return `The change applies at the end of your billing period${periodEnd ? `, on ${formatDate(periodEnd)}` : ''}. Nothing is charged today, and you keep your current plan until then.`;
    case 'none':
      return 'This is your current plan; nothing changes.';
  }
}

type PlanChangeChargeProps = {
  preview: { data?: PlanChangePreview | undefined; isPending: boolean; isError: boolean };
  timing: ChangeTiming;
  price: { amount: number; currency: string };
  periodEnd: Date | null;
  card: PaymentMethod | undefined;
};

/** The dialog's charge line: a loading line while the server works it out, then the amount. */
export function PlanChangeCharge({ preview, timing, price, periodEnd, card }: PlanChangeChargeProps) {
  if (preview.isPending) return <Skeleton label="Working out today’s charge" lines={1} />;
  if (preview.isError || !preview.data)
    return <p className="plan-change__timing">{timingSentence(timing, price, periodEnd, card)}</p>;
  return (
    <p className="plan-change__timing" data-testid="plan-change-charge">
      {chargeSentence(preview.data, timing, card)}
    </p>
  );
}
