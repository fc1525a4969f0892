import type { PlanLimits } from '@waitlist/contract';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useTextsThisMonth } from '../api/get-texts-this-month.ts';

const count = (value: number) => value.toLocaleString('en-US');

/**
 * A plan with texts included (the operator's catalogue, issue 39): how many of this month's segments are used,
 * counted as the dashboard counts texts sent. Nothing for a plan without an allowance.
 */
export function TextsThisMonthCard({ limits }: { limits: PlanLimits }) {
  const included = limits.textsIncluded;
  const texts = useTextsThisMonth(included !== null);
  if (included === null) return null;
  const used = texts.data?.segmentsSent ?? 0;
  const over = Math.max(0, used - included);
  return (
    <Card className="texts-this-month">
      <h2 className="eyebrow" id="texts-this-month">
        Texts this month
      </h2>
      {texts.isPending ? (
        <Skeleton label="Loading this month’s texts" lines={1} />
      ) : texts.isError ? (
        <p className="muted">This month’s texts could not be counted right now.</p>
      ) : (
        <>
          <p data-testid="texts-this-month">
            <strong>{count(used)}</strong> of {count(included)} text segments included in your plan used
          </p>
          <meter
            aria-labelledby="texts-this-month"
            min={0}
            max={included}
            value={Math.min(used, included)}
            low={included * 0.8}
            high={included * 0.95}
            optimum={0}
          />
          <p className="muted">
            {over > 0
              ? `${count(over)} segments over your allowance this month; your alerts still go out.`
              : 'Counted from the 1st of the month in your business’s time zone; one long text can take several segments.'}
          </p>
        </>
      )}
    </Card>
  );
}
