import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { type DashboardRangeChoice, useEarnings } from '../api/get-earnings.ts';
import { EarningsChart } from '../components/earnings-chart.tsx';
import { formatCount, formatDay, formatMinutes, formatMoney, formatPercent } from '../components/format.ts';
import '../components/dashboard.css';
import { textNumberLink } from '../../../lib/links.ts';

const RANGE_LABELS = {
  week: 'This week',
  month: 'This month',
  '90d': 'Last 90 days',
  custom: 'Custom dates',
};
type RangeKind = keyof typeof RANGE_LABELS;

/** /dashboard: what the waitlist earned back, for a range in the business's time zone (issue 14). */
export function DashboardPage() {
  const [kind, setKind] = useState<RangeKind>('month');
  const [custom, setCustom] = useState({ from: '', to: '' });
  const [applied, setApplied] = useState<DashboardRangeChoice>({ range: 'month' });
  const earnings = useEarnings(applied);

  const chooseKind = (next: RangeKind) => {
    setKind(next);
    if (next !== 'custom') setApplied({ range: next });
  };
  const applyCustom = (event: FormEvent) => {
    event.preventDefault();
    if (custom.from && custom.to) setApplied({ range: 'custom', from: custom.from, to: custom.to });
  };

  return (
    <div className="page dashboard">
      <header className="split-header dashboard__header">
        <div>
          <h1 className="page__title">Dashboard</h1>
          <p className="page__lead">What your waitlist earned back from cancelled appointments.</p>
        </div>
        <form className="dashboard__range" onSubmit={applyCustom}>
          <SelectField
            label="Range"
            value={kind}
            onChange={(event) => chooseKind(event.target.value as RangeKind)}
          >
            {Object.entries(RANGE_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </SelectField>
          {kind === 'custom' ? (
            <>
              <TextField
                label="From"
                type="date"
                value={custom.from}
                onChange={(event) => setCustom((c) => ({ ...c, from: event.target.value }))}
                required
              />
              <TextField
                label="To"
                type="date"
                value={custom.to}
                onChange={(event) => setCustom((c) => ({ ...c, to: event.target.value }))}
                required
              />
              <Button type="submit" variant="secondary">
                Show
              </Button>
            </>
          ) : null}
        </form>
      </header>

      {earnings.isPending ? (
        <Card>
          <Skeleton lines={6} label="Loading your earnings" />
        </Card>
      ) : earnings.isError ? (
        <Card className="stack">
          <Alert>{screenErrorMessage(earnings.error, 'Failed to load your earnings.')}</Alert>
          <Button variant="secondary" onClick={() => earnings.refetch()}>
            Try again
          </Button>
        </Card>
      ) : (
        <DashboardFigures data={earnings.data} />
      )}
    </div>
  );
}

function DashboardFigures({ data }: { data: NonNullable<ReturnType<typeof useEarnings>['data']> }) {
  const figures = data.period;
  const period = `${formatDay(figures.from)} – ${formatDay(figures.to)} (${figures.timeZone.replaceAll('_', ' ')})`;
  // The empty state is for an owner who has never sent an alert; a quiet range of a busy owner shows zeros.
  if (data.alertsSent === 0) {
    return (
      <Card className="dashboard__empty stack">
        <h2 className="card__title">Your earnings will show here</h2>
        <p>
          When someone cancels, open the slot and your waitlist gets a text. Each slot a customer claims adds
          its price to <strong>revenue recovered</strong>, and you will see your fill rate, how fast slots are
          claimed, and the texts sent, week by week.
        </p>
        <ol className="dashboard__steps">
          <li>
            <Link to={textNumberLink}>Get your text number</Link> on the Billing tab.
          </li>
          <li>
            Add customers to your <Link to="/waitlist">waitlist</Link>.
          </li>
          <li>
            Open your first slot on <Link to="/openings">Openings</Link>, with its price.
          </li>
        </ol>
        <p className="muted">
          {period} · {formatCount(figures.waitlistSize)} waiting on your list
        </p>
      </Card>
    );
  }
  const tiles: { label: string; value: string; note?: string }[] = [
    { label: 'Revenue recovered', value: formatMoney(figures.revenueRecoveredCents) },
    {
      label: 'Openings filled',
      value: `${formatCount(figures.openingsFilled)} / ${formatCount(figures.openingsOpened)}`,
      note: 'filled / opened',
    },
    {
      label: 'Fill rate',
      value: figures.fillRate === null ? '—' : formatPercent(figures.fillRate),
      // Honest about its base: an opening still open is neither filled nor lost yet (issue 27).
      note:
        figures.openingsDecided === 0
          ? 'none decided yet'
          : `of ${formatCount(figures.openingsDecided)} decided; open ones not counted`,
    },
    { label: 'Median time to claim', value: formatMinutes(figures.medianMinutesToClaim) },
    {
      label: 'Texts sent',
      value: formatCount(figures.textsSent),
      note: `${formatCount(figures.textsDelivered)} delivered`,
    },
    { label: 'Opt-outs', value: formatCount(figures.optOuts) },
    {
      label: 'Waiting now',
      value: formatCount(figures.waitlistSize),
      note: 'not texted, booked or opted out',
    },
  ];
  return (
    <div className="stack">
      <p className="muted dashboard__period">{period}</p>
      {/* Texts offering slots per customer language (issue 28), once anyone on the list reads Spanish. Issue
          39: "alerts" are the openings the daily cap counts; what goes to each customer is a "text". */}
      {figures.hasSpanishCustomers || figures.alertsByLanguage.es > 0 ? (
        <p className="dashboard__languages" data-testid="alerts-by-language">
          Texts offering slots: {formatCount(figures.alertsByLanguage.en)} English ·{' '}
          {formatCount(figures.alertsByLanguage.es)} Spanish
        </p>
      ) : null}
      <dl className="dashboard__tiles">
        {tiles.map((tile) => (
          <div key={tile.label} className="dashboard__tile">
            <dt>{tile.label}</dt>
            <dd>
              <span className="dashboard__value">{tile.value}</span>
              {tile.note ? <span className="dashboard__note">{tile.note}</span> : null}
            </dd>
          </div>
        ))}
      </dl>
      <Card>
        <h2 className="card__title">Week by week</h2>
        <EarningsChart weeks={figures.weeks} />
      </Card>
    </div>
  );
}
