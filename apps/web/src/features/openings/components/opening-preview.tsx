import { type OpeningPreview, openingModeLabels, type PlannedOffer } from '@waitlist/contract';
import { useEffect, useRef } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { formatCents } from '../../../lib/money.ts';
import { leftOutLabels, rankReason, shortClock, skippedLabel } from './offer-words.ts';
import { todayInZone } from './zoned-time.ts';
// Its own styles: the inbox's calendar cards show this step too (issue 39).
import './openings.css';

/** A send time this far ahead is held back by quiet hours, not the moment it takes to send. */
const LATER_MS = 60_000;

const isLater = (iso: string | null, now: Date) => iso !== null && Date.parse(iso) - now.getTime() > LATER_MS;

/** "8:00 am", "8:00 am tomorrow" or "8:00 am Sat", in the business's time zone. */
function whenLabel(iso: string, timeZone: string, now: Date): string {
  const day = todayInZone(timeZone, new Date(iso));
  if (day === todayInZone(timeZone, now)) return shortClock(iso, timeZone);
  const tomorrow = todayInZone(timeZone, new Date(now.getTime() + 86_400_000));
  const weekday = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short' }).format(new Date(iso));
  return `${shortClock(iso, timeZone)} ${day === tomorrow ? 'tomorrow' : weekday}`;
}

const people = (count: number) => `${count} customer${count === 1 ? '' : 's'}`;
const firstNames = (offers: readonly PlannedOffer[]) => {
  const names = offers.slice(0, 3).map((offer) => offer.name.split(' ')[0]);
  return `${names.join(', ')}${offers.length > names.length ? ' …' : ''}`;
};

/**
 * "Text 5 customers now: Priya, Jenny …", naming apart those quiet hours hold back ("· 1 held for quiet hours:
 * Kai", issue 39); or when quiet hours hold every first text, when it goes out.
 */
export function previewHeadline(preview: OpeningPreview, timeZone: string, now: Date): string {
  const first = preview.offers
    .filter((offer) => offer.wave === 1 && offer.skipReason === null)
    .sort((a, b) => a.rank - b.rank);
  if (first.length === 0 || preview.firstTextAt === null)
    return 'Nobody on your waitlist can be texted for this slot.';
  const held = first.filter((offer) => isLater(offer.sendAt, now));
  const atOnce = first.filter((offer) => !isLater(offer.sendAt, now));
  if (atOnce.length === 0)
    return `Text ${people(first.length)}: ${firstNames(first)} — first text at ${whenLabel(preview.firstTextAt, timeZone, now)} because of quiet hours`;
  const heldPart = held.length > 0 ? ` · ${held.length} held for quiet hours: ${firstNames(held)}` : '';
  return `Text ${people(atOnce.length)} now: ${firstNames(atOnce)}${heldPart}`;
}

/** "Honolulu" for Pacific/Honolulu. */
const cityOf = (zone: string) => (zone.split('/').pop() ?? zone).replace(/_/g, ' ');

/** What the alert offers: "Women’s cut with Jess · $65" (a calendar's slot is checked here too). */
export function slotLabel(slot: NonNullable<OpeningPreview['slot']>): string {
  const who = slot.staffName ? ` with ${slot.staffName}` : '';
  const price = slot.priceCents !== null ? ` · ${formatCents(slot.priceCents, { wholeDollars: true })}` : '';
  return `${slot.service || 'Any service'}${who}${price}`;
}

/** How the plan goes: "Automatic: waves of 2, 10 minutes to claim", "Automatic: one at a time, …". */
function planLabel(preview: OpeningPreview): string {
  const size = preview.waveSize;
  const waves =
    preview.waves > 1 && size !== null
      ? `${size === 1 ? 'one at a time' : `waves of ${size}`}, ${preview.claimWindowMinutes ?? '?'} minutes to claim`
      : 'everyone at once';
  return preview.mode === 'auto' ? `${openingModeLabels.auto}: ${waves}` : openingModeLabels[preview.mode];
}

function offerWhen(offer: PlannedOffer, timeZone: string, now: Date): string {
  if (offer.skipReason) return skippedLabel(offer.skipReason);
  if (offer.wave > 1) return `Wave ${offer.wave}, if nobody has claimed by then`;
  if (offer.sendAt && isLater(offer.sendAt, now)) {
    // Quiet hours are the customer's own: said in their time when it is not the business's.
    const zone = offer.timeZone ?? timeZone;
    if (zone === timeZone) return `Texted at ${whenLabel(offer.sendAt, timeZone, now)} (quiet hours)`;
    return `Texted at ${whenLabel(offer.sendAt, zone, now)} ${cityOf(zone)} time (quiet hours there)`;
  }
  return 'Texted now';
}

type OpeningPreviewStepProps = {
  preview: OpeningPreview;
  timeZone: string;
  sending: boolean;
  error: string | null;
  onBack: () => void;
  onConfirm: () => void;
};

/** The open-slot form's last step: who gets the text, in what order and why, before anything is sent. */
export function OpeningPreviewStep({
  preview,
  timeZone,
  sending,
  error,
  onBack,
  onConfirm,
}: OpeningPreviewStepProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const now = new Date();
  useEffect(() => headingRef.current?.focus(), []);
  const expected = Math.round(preview.expectedTexts);
  return (
    <section className="opening-preview stack" aria-labelledby="opening-preview-title">
      <h3 id="opening-preview-title" className="opening-preview__title" tabIndex={-1} ref={headingRef}>
        Check before sending
      </h3>
      {preview.slot ? (
        <p className="opening-preview__slot" data-testid="preview-slot">
          {slotLabel(preview.slot)}
        </p>
      ) : null}
      <p className="opening-preview__headline" data-testid="preview-headline">
        {previewHeadline(preview, timeZone, now)}
      </p>
      <p className="opening-preview__figures" data-testid="preview-figures">
        {preview.fitting} customer{preview.fitting === 1 ? '' : 's'} fit this slot ·{' '}
        {preview.mode === 'auto' ? 'the automatic plan' : 'this plan'} expects about {expected} text
        {expected === 1 ? '' : 's'} · {planLabel(preview)}
      </p>
      {preview.offers.length > 0 ? (
        <ol className="preview-list" aria-label="Who gets the text, in order">
          {[...preview.offers]
            .sort((a, b) => a.rank - b.rank)
            .map((offer) => (
              <li key={offer.customerId} className="preview-list__item" aria-label={offer.name}>
                <span className="preview-list__name">{offer.name}</span>
                <span className="preview-list__reason">{rankReason(offer.rank, offer.reason)}</span>
                <span className="preview-list__when">{offerWhen(offer, timeZone, now)}</span>
              </li>
            ))}
        </ol>
      ) : null}
      {preview.leftOut && preview.leftOut.length > 0 ? (
        <section className="opening-preview__left-out" aria-labelledby="preview-left-out">
          <h4 id="preview-left-out" className="opening-preview__subtitle">
            Left out ({preview.leftOut.length})
          </h4>
          <ul className="preview-list" aria-label="Left out">
            {preview.leftOut.map((left) => (
              <li key={left.customerId} className="preview-list__item" aria-label={left.name}>
                <span className="preview-list__name">{left.name}</span>
                <span className="preview-list__reason">{leftOutLabels[left.reason]}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {error ? (
        <Alert key={error} reveal>
          {error}
        </Alert>
      ) : null}
      <div className="opening-preview__actions">
        <Button variant="secondary" onClick={onBack} disabled={sending}>
          Back to edit
        </Button>
        <Button onClick={onConfirm} busy={sending}>
          Send cancellation alert
        </Button>
      </div>
    </section>
  );
}
