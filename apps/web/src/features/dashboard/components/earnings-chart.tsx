import type { EarningsWeek } from '@waitlist/contract';
import { useLayoutEffect, useRef, useState } from 'react';
import { formatDay, formatMoney, formatPercent } from './format.ts';

/** The width drawn until the figure is measured (and in tests, where nothing has a size). */
const DEFAULT_WIDTH = 640;
const HEIGHT = 240;
const PAD = { top: 16, right: 40, bottom: 28, left: 56 };
/** About the room a week label ("Nov 23") takes at the tick size, with a gap. */
const LABEL_ROOM = 52;

/**
 * The figure's width in CSS pixels, followed as it changes: the SVG is drawn at its real size, so its
 * text stays at the tick size and the plot keeps its height on a phone instead of shrinking with a
 * scaled-down drawing.
 */
function useWidth() {
  const ref = useRef<HTMLElement>(null);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  useLayoutEffect(() => {
    const node = ref.current;
    if (!node) return;
    const measure = () => {
      const measured = Math.round(node.getBoundingClientRect().width);
      if (measured > 0) setWidth(measured);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/**
 * Weekly bars of revenue recovered with a fill-rate line, in plain SVG (no charting library: nothing to
 * load but this route's own chunk). A table under it carries the same figures for screen readers.
 */
export function EarningsChart({ weeks }: { weeks: EarningsWeek[] }) {
  const [ref, WIDTH] = useWidth();
  const max = Math.max(1, ...weeks.map((w) => w.revenueRecoveredCents));
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, weeks.length);
  const barW = Math.max(1.5, Math.min(40, slot * 0.6));
  const x = (i: number) => PAD.left + slot * i + slot / 2;
  const yMoney = (cents: number) => PAD.top + innerH - (cents / max) * innerH;
  const yRate = (rate: number) => PAD.top + innerH - rate * innerH;
  const labelEvery = Math.ceil(weeks.length / Math.max(1, Math.min(6, Math.floor(innerW / LABEL_ROOM))));
  const points = weeks
    .map((w, i) => (w.fillRate === null ? null : `${x(i).toFixed(1)},${yRate(w.fillRate).toFixed(1)}`))
    .filter((p): p is string => p !== null);

  return (
    <figure className="earnings-chart" ref={ref}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        height={HEIGHT}
        role="img"
        aria-label="Revenue recovered per week, with the fill rate as a line"
        className="earnings-chart__svg"
      >
        <line
          x1={PAD.left}
          x2={WIDTH - PAD.right}
          y1={PAD.top + innerH}
          y2={PAD.top + innerH}
          className="earnings-chart__axis"
        />
        <text x={PAD.left - 8} y={PAD.top + 4} textAnchor="end" className="earnings-chart__tick">
          {formatMoney(max)}
        </text>
        <text x={PAD.left - 8} y={PAD.top + innerH} textAnchor="end" className="earnings-chart__tick">
          {formatMoney(0)}
        </text>
        <text x={WIDTH - PAD.right + 6} y={PAD.top + 4} className="earnings-chart__tick">
          100%
        </text>
        {weeks.map((w, i) => (
          <g key={w.weekStart}>
            <rect
              x={x(i) - barW / 2}
              y={yMoney(w.revenueRecoveredCents)}
              width={barW}
              height={Math.max(0, PAD.top + innerH - yMoney(w.revenueRecoveredCents))}
              rx={3}
              className="earnings-chart__bar"
            >
              <title>{`${formatDay(w.weekStart)}: ${formatMoney(w.revenueRecoveredCents)}`}</title>
            </rect>
            {i % labelEvery === 0 ? (
              <text x={x(i)} y={HEIGHT - 8} textAnchor="middle" className="earnings-chart__tick">
                {formatDay(w.weekStart)}
              </text>
            ) : null}
          </g>
        ))}
        {points.length > 1 ? <polyline points={points.join(' ')} className="earnings-chart__line" /> : null}
        {points.map((p) => {
          const [cx, cy] = p.split(',');
          return <circle key={p} cx={cx} cy={cy} r={3.5} className="earnings-chart__dot" />;
        })}
      </svg>
      <figcaption className="earnings-chart__legend">
        <span className="earnings-chart__key earnings-chart__key--bar">Revenue recovered</span>
        <span className="earnings-chart__key earnings-chart__key--line">Fill rate</span>
      </figcaption>
      {/* Hidden in a box, not on the table itself: a table grows to its rows whatever its height, and its
          rows would lengthen the page by blank space to scroll through. */}
      <div className="visually-hidden">
        <table>
          <caption>Week by week</caption>
          <thead>
            <tr>
              <th scope="col">Week of</th>
              <th scope="col">Revenue recovered</th>
              <th scope="col">Fill rate</th>
            </tr>
          </thead>
          <tbody>
            {weeks.map((w) => (
              <tr key={w.weekStart}>
                <td>{formatDay(w.weekStart)}</td>
                <td>{formatMoney(w.revenueRecoveredCents)}</td>
                <td>{w.fillRate === null ? '—' : formatPercent(w.fillRate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
