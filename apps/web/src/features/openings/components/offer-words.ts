import { type LeftOutReason, offerMessages, type SkipReason } from '@waitlist/contract';
import { formatInZone } from './zoned-time.ts';

/** 1st, 2nd, 3rd, 4th… 11th, 12th, 13th, 21st. */
export function ordinal(place: number): string {
  const tens = place % 100;
  const suffix =
    tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[place % 10];
  return `${place}${suffix ?? 'th'}`;
}

/**
 * Why a customer is asked when they are. The server's reason already starts with the place ("2nd: claimed 3
 * of 4 offers, replies in ~4 min"); one without it gets it here, so the place always shows.
 */
export function rankReason(rank: number, reason: string): string {
  const text = reason.trim();
  if (!text) return ordinal(rank);
  return /^\d+(st|nd|rd|th)\b/.test(text) ? text : `${ordinal(rank)}: ${text}`;
}

/** "8:00 am": the quiet-hours time as the owner set it on the Services page. */
export const shortClock = (iso: string, timeZone: string) =>
  formatInZone(iso, timeZone, { hour: 'numeric', minute: '2-digit' });

/** "Not texted: quiet hours". */
export const skippedLabel = (reason: SkipReason) => {
  const words = offerMessages.skipped[reason];
  return `${words[0]?.toUpperCase() ?? ''}${words.slice(1)}`;
};

/** Why a waiting customer is not offered the slot (the preview's "Left out", issue 39). */
export const leftOutLabels: Record<LeftOutReason, string> = {
  service: 'Their service needs longer than this slot',
  staff: 'Asked for another stylist',
  time_preference: 'Outside the times they asked for',
};
