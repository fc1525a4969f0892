/**
 * Real time zones about an hour apart, New York first. The harnesses that run the server on the real clock
 * (two instances, chaos, bench:alerts) give their business one where it is now mid-day, so its alerts never
 * meet quiet hours (issue 26: no alert from 20:00 to 8:00 in the customer's time zone) whatever the hour of
 * the run; the e2e journeys (e2e/support/app.ts) and bench:scale
 * (scripts/bench/scale/prepare.mjs) use it too, which is why it is plain JavaScript, typed by daytime-zone.d.mts.
 */
const ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
  'Pacific/Pago_Pago',
  'Pacific/Kiritimati',
  'Pacific/Auckland',
  'Pacific/Noumea',
  'Australia/Brisbane',
  'Asia/Tokyo',
  'Asia/Shanghai',
  'Asia/Bangkok',
  'Asia/Dhaka',
  'Asia/Karachi',
  'Asia/Dubai',
  'Europe/Moscow',
  'Europe/Athens',
  'Europe/Paris',
  'Europe/London',
  'Atlantic/Azores',
  'Atlantic/South_Georgia',
  'America/Sao_Paulo',
  'America/Halifax',
];

/** A zone where it is now between 10:00 and 15:59, `first` if it is one. */
export function daytimeZone(now = new Date(), first = ZONES[0]) {
  for (const zone of [first, ...ZONES]) {
    const hour = Number(
      new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', hourCycle: 'h23' }).format(now),
    );
    if (hour >= 10 && hour < 16) return zone;
  }
  return ZONES[0];
}
