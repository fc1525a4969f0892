import { Link } from 'react-router';
import { timeZoneTitle } from '../../../lib/time-zones.ts';

/**
 * "In your business time zone (Chicago, Central Time). Change": the zone named as a place, and the way to
 * the one place it is changed, Settings (issue 39).
 */
export function TimeZoneSetting({ timeZone, readOnly }: { timeZone: string; readOnly: boolean }) {
  return (
    <span className="time-zone-setting">
      In your business time zone ({timeZoneTitle(timeZone)}).{' '}
      {readOnly ? null : (
        <Link to="/settings/business" aria-label="Change the business time zone in Settings">
          Change
        </Link>
      )}
    </span>
  );
}
