import { useConfig } from '../../../lib/config.ts';
import type { LanguageCost } from './template-cost.ts';
import { segmentsLabel } from './template-cost.ts';

/** Dollars to four places at most, as carriers price a segment ($0.0079, $0.0158, $1.2). */
export const segmentMoney = (amount: number) => `$${Number(amount.toFixed(4))}`;

/**
 * Says what makes a text expensive (issue 28): the character that forces the 70-character encoding, a
 * Spanish text's count as written and in plain letters, and what one alert costs.
 */
export function TemplateCostNotes({
  cost,
  waitingCustomers,
}: {
  cost: LanguageCost;
  waitingCustomers?: number;
}) {
  // Issue 39: the price of a segment is the operator's (SMS_SEGMENT_PRICE, served on GET /config).
  const price = useConfig().data?.smsSegmentPrice?.amount;
  return (
    <>
      {price !== undefined ? (
        <p className="field__hint" data-testid="text-money">
          One text ≈ {segmentMoney(cost.sent.segments * price)} ({segmentsLabel(cost.sent.segments)} ×{' '}
          {segmentMoney(price)})
          {cost.alertTexts !== null ? ` · one alert ≈ ${segmentMoney(cost.alertTexts * price)}` : ''}
        </p>
      ) : null}
      {cost.culprit ? (
        <p className="field__hint template-editor__culprit" data-testid="ucs2-culprit">
          The ‘{cost.culprit.char}’ in {cost.culprit.from === 'sample time and service' ? 'the' : 'your'}{' '}
          {cost.culprit.from} makes it use the 70-character encoding.
        </p>
      ) : null}
      {cost.bothWays ? (
        <p className="field__hint" data-testid="both-ways">
          {segmentsLabel(cost.bothWays.written.segments)} (UCS-2: ‘{cost.bothWays.culprit}’) ·{' '}
          {cost.bothWays.plain.segments} with plain letters
        </p>
      ) : null}
      {cost.alertTexts !== null ? (
        <p className="field__hint" data-testid="alert-cost">
          One alert ≈ {cost.alertTexts} billed text segment{cost.alertTexts === 1 ? '' : 's'} (
          {segmentsLabel(cost.sent.segments)} × {waitingCustomers} waiting customer
          {waitingCustomers === 1 ? '' : 's'}).
        </p>
      ) : null}
    </>
  );
}
