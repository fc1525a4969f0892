/** Time zones as owners choose them (onboarding, Openings). Shared (lib/) because both features ask. */
/** The zones most owners pick, first; every other zone the browser knows follows. */
const usZones = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
];

/** The browser's own zone: the best first guess of where the business is. */
export function guessTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'America/New_York';
  } catch {
    return 'America/New_York';
  }
}

/** The guess first when it is not a US zone, then the US zones, then the rest. */
export function timeZoneChoices(guess: string): string[] {
  let others: string[] = [];
  try {
    others = Intl.supportedValuesOf('timeZone');
  } catch {
    others = [];
  }
  const first = usZones.includes(guess) ? usZones : [guess, ...usZones];
  return [...first, ...others.filter((zone) => !first.includes(zone))];
}

export const timeZoneLabel = (zone: string) => zone.replaceAll('_', ' ');
