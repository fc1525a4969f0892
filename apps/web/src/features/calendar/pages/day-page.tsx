import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useCalendarConnections, useCalendarDay } from '../api/calendar.ts';
import { addDays } from '../components/day-layout.ts';
import { DayTimeline } from '../components/day-timeline.tsx';
import '../components/calendar.css';

/** A week from this width up; one day on a phone. */
export const WEEK_MEDIA_QUERY = '(min-width: 1024px)';

function useWideScreen() {
  const [wide, setWide] = useState(() => window.matchMedia?.(WEEK_MEDIA_QUERY).matches ?? false);
  useEffect(() => {
    const query = window.matchMedia?.(WEEK_MEDIA_QUERY);
    if (!query) return;
    const onChange = () => setWide(query.matches);
    query.addEventListener?.('change', onChange);
    return () => query.removeEventListener?.('change', onChange);
  }, []);
  return wide;
}

/** Today on this phone's calendar, as YYYY-MM-DD. */
const today = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
};
const validDate = (value: string | null) => (value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null);

/** /day (issue 29): the owner's day at a glance, the calendar's events beside the openings; a week on a wide screen. */
export function DayPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const navigate = useNavigate();
  const days = useWideScreen() ? 7 : 1;
  const date = validDate(searchParams.get('date')) ?? today();
  const day = useCalendarDay(date, days);
  const connections = useCalendarConnections();
  const goTo = (next: string) => {
    if (validDate(next)) setSearchParams({ date: next });
  };
  const openGap = (gapDate: string, time: string) =>
    navigate(`/openings?startsAt=${encodeURIComponent(`${gapDate}T${time}`)}`);
  const step = days === 7 ? 'week' : 'day';

  return (
    <div className="page day-page">
      <header className="day-page__header">
        <div>
          <h1 className="page__title">{days === 7 ? 'Week' : 'Day'}</h1>
          <p className="page__lead">Your calendar and your openings. Tap a free time to open a slot.</p>
        </div>
        <nav className="day-page__nav" aria-label="Choose the day">
          <Button
            variant="secondary"
            onClick={() => goTo(addDays(date, -days))}
            aria-label={`Previous ${step}`}
          >
            ‹
          </Button>
          <label className="day-page__date">
            <span className="visually-hidden">Date</span>
            <input
              type="date"
              className="field__input"
              value={date}
              onChange={(event) => goTo(event.target.value)}
            />
          </label>
          <Button variant="secondary" onClick={() => goTo(addDays(date, days))} aria-label={`Next ${step}`}>
            ›
          </Button>
          {date !== today() ? (
            <Button variant="ghost" onClick={() => goTo(today())}>
              Today
            </Button>
          ) : null}
        </nav>
      </header>
      {connections.data && connections.data.data.length === 0 ? (
        <Card className="day-page__empty">
          <h2 className="card__title">No calendar connected</h2>
          <p className="muted">
            Connect the calendar you book in to see its appointments here, and to open a slot by itself when
            one is cancelled. <Link to="/settings/calendar">Connect a calendar</Link>
          </p>
        </Card>
      ) : null}
      {day.isPending ? (
        <Card>
          <Skeleton lines={8} label="Loading your day" />
        </Card>
      ) : day.isError ? (
        <Card className="stack">
          <Alert>{screenErrorMessage(day.error, 'Failed to load your day.')}</Alert>
          <Button variant="secondary" onClick={() => day.refetch()}>
            Try again
          </Button>
        </Card>
      ) : (
        <Card className="day-page__timeline">
          <DayTimeline day={day.data} onGap={openGap} />
        </Card>
      )}
      <p className="muted day-page__settings">
        <Link to="/settings/calendar">Calendar settings</Link>
      </p>
    </div>
  );
}
