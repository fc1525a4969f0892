/**
 * Time zones as owners choose them (onboarding, Settings, a customer's zone). Shared (lib/) because several
 * features ask. An owner thinks in cities and "Eastern time", not in IANA identifiers: each zone carries a
 * city, a region and the names people search by.
 */
import { formatInZone } from './clock.ts';

/** The zones most owners pick, first, with the names Americans call them by; every other zone follows. */
const usZones: Record<string, { region: string; names: string }> = {
  'America/New_York': { region: 'Eastern Time', names: 'eastern est edt et' },
  'America/Chicago': { region: 'Central Time', names: 'central cst cdt ct' },
  'America/Denver': { region: 'Mountain Time', names: 'mountain mst mdt mt' },
  'America/Phoenix': { region: 'Arizona, no daylight saving', names: 'arizona mountain mst' },
  'America/Los_Angeles': { region: 'Pacific Time', names: 'pacific pst pdt pt california' },
  'America/Anchorage': { region: 'Alaska Time', names: 'alaska akst akdt' },
  'Pacific/Honolulu': { region: 'Hawaii Time', names: 'hawaii hst' },
};
const usZoneIds = Object.keys(usZones);

/** Other names people search by, for zones a browser may spell either way. */
const commonNames: Record<string, string> = {
  'America/Detroit': 'eastern michigan',
  'America/Indianapolis': 'eastern indiana',
  'America/Indiana/Indianapolis': 'eastern indiana',
  'America/Boise': 'mountain idaho',
  'America/Puerto_Rico': 'atlantic ast',
  'America/Toronto': 'canada eastern ontario',
  'America/Vancouver': 'canada pacific british columbia',
  'America/Mexico_City': 'mexico',
  'America/Sao_Paulo': 'brazil',
  'Europe/London': 'uk united kingdom britain england gmt bst',
  'Europe/Dublin': 'ireland',
  'Europe/Paris': 'france cet',
  'Europe/Berlin': 'germany cet',
  'Europe/Madrid': 'spain cet',
  'Europe/Rome': 'italy cet',
  'Europe/Kiev': 'kyiv ukraine',
  'Europe/Kyiv': 'kiev ukraine',
  'Asia/Calcutta': 'kolkata india ist',
  'Asia/Kolkata': 'calcutta india ist',
  'Asia/Tokyo': 'japan jst',
  'Asia/Shanghai': 'china beijing',
  'Asia/Saigon': 'ho chi minh vietnam',
  'Asia/Manila': 'philippines',
  'Australia/Sydney': 'aest',
};

/** Cities some browsers still spell the old way. */
const cityNames: Record<string, string> = {
  'Asia/Calcutta': 'Kolkata',
  'Asia/Saigon': 'Ho Chi Minh City',
  'Europe/Kiev': 'Kyiv',
  'Asia/Katmandu': 'Kathmandu',
  'Asia/Rangoon': 'Yangon',
};

/** The browser's own zone: the best first guess of where the business is. */
export function guessTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'America/New_York';
  } catch {
    return 'America/New_York';
  }
}

function supportedZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [];
  }
}

/** The guess first when it is not a US zone, then the US zones, then the rest. */
export function timeZoneChoices(guess: string): string[] {
  const others = supportedZones();
  const first = usZoneIds.includes(guess) ? usZoneIds : [guess, ...usZoneIds];
  return [...first, ...others.filter((zone) => !first.includes(zone))];
}

export const timeZoneLabel = (zone: string) => zone.replaceAll('_', ' ');

/** "America/Los_Angeles" → "Los Angeles". */
export function timeZoneCity(zone: string): string {
  return cityNames[zone] ?? timeZoneLabel(zone.split('/').at(-1) ?? zone);
}

/** "Eastern Time" for the US zones, else where the zone is: "Europe", "America · Argentina". */
export function timeZoneRegion(zone: string): string {
  const us = usZones[zone];
  if (us) return us.region;
  return zone.split('/').slice(0, -1).map(timeZoneLabel).join(' · ');
}

/** "Chicago, Central Time", "Paris, Europe": how a zone reads in a sentence. */
export function timeZoneTitle(zone: string): string {
  return [timeZoneCity(zone), timeZoneRegion(zone)].filter(Boolean).join(', ');
}

export interface TimeZoneOption {
  id: string;
  city: string;
  region: string;
  /** Everything a search matches, lower case: city, region, identifier and common names. */
  words: string;
}

export function timeZoneOption(zone: string): TimeZoneOption {
  const city = timeZoneCity(zone);
  const region = timeZoneRegion(zone);
  const names = usZones[zone]?.names ?? commonNames[zone] ?? '';
  return { id: zone, city, region, words: `${city} ${region} ${timeZoneLabel(zone)} ${names}`.toLowerCase() };
}

/** Every zone as an option, the US zones (and `current`, if it is not one) first. */
export function timeZoneOptions(current: string): TimeZoneOption[] {
  return timeZoneChoices(current).map(timeZoneOption);
}

/**
 * The options matching what was typed: every word of it found in the zone's words, the zones whose city
 * starts with it first, in list order otherwise.
 */
export function searchTimeZones(options: TimeZoneOption[], query: string): TimeZoneOption[] {
  const words = query
    .toLowerCase()
    .replaceAll('_', ' ')
    .split(/[\s/,]+/)
    .filter(Boolean);
  if (words.length === 0) return options;
  const matches = options.filter((option) => words.every((word) => option.words.includes(word)));
  const typed = words.join(' ');
  const cityFirst = (option: TimeZoneOption) => (option.city.toLowerCase().startsWith(typed) ? 0 : 1);
  return matches
    .map((option, index) => ({ option, index }))
    .sort((a, b) => cityFirst(a.option) - cityFirst(b.option) || a.index - b.index)
    .map(({ option }) => option);
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** "GMT-5" (daylight saving included) at that moment; "" if the browser cannot say. */
export function timeZoneOffset(zone: string, now: Date): string {
  try {
    let format = offsetFormats.get(zone);
    if (!format) {
      format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' });
      offsetFormats.set(zone, format);
    }
    return format.formatToParts(now).find((part) => part.type === 'timeZoneName')?.value ?? '';
  } catch {
    return '';
  }
}

/** "3:42 pm": the time it is now in the zone. */
export const timeZoneNow = (zone: string, now: Date) =>
  formatInZone(now, zone, { hour: 'numeric', minute: '2-digit' });
