import type { Message } from '@waitlist/contract';
import type { ReactNode } from 'react';
import { Badge } from '../../../components/ui/badge.tsx';
import { formatInZone } from '../../../lib/clock.ts';
import { replyKeyword } from './reply-keywords.ts';

const deliveryLabels: Record<
  Message['status'],
  { label: string; tone: 'neutral' | 'info' | 'success' | 'danger' }
> = {
  queued: { label: 'Queued', tone: 'neutral' },
  sent: { label: 'Sent', tone: 'info' },
  delivered: { label: 'Delivered', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  undelivered: { label: 'Undelivered', tone: 'danger' },
  received: { label: 'Received', tone: 'neutral' },
};

/**
 * "Jan 3, 1:04 pm EST": in the business's time zone with its name, as the opening page shows times
 * (the phone's own zone, named, until the business's is known).
 */
export function messageTime(iso: string, timeZone: string | undefined): string {
  const options: Intl.DateTimeFormatOptions = {
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  };
  return formatInZone(iso, timeZone, options);
}

/** One text in a conversation (the customer page and the inbox), with what it answered beneath, if given. */
export function MessageBubble({
  message,
  timeZone,
  children,
}: {
  message: Message;
  timeZone: string | undefined;
  /** Shown under the text (the inbox: the alert a reply answered). */
  children?: ReactNode;
}) {
  const when = messageTime(message.createdAt, timeZone);
  const outgoing = message.direction === 'out';
  const keyword = outgoing ? null : replyKeyword(message.body);
  const delivery = deliveryLabels[message.status];
  return (
    <li
      className={`bubble bubble--${outgoing ? 'out' : 'in'}`}
      aria-label={`${outgoing ? 'Sent' : 'Received'} ${when}`}
    >
      <p className="bubble__body">{message.body}</p>
      <p className="bubble__meta">
        <time dateTime={message.createdAt}>{when}</time>
        {outgoing ? <Badge tone={delivery.tone}>{delivery.label}</Badge> : null}
        {keyword ? <Badge tone={keyword.tone}>{keyword.label}</Badge> : null}
        {outgoing && message.segments > 1 ? <span>{message.segments} segments</span> : null}
        {message.error ? <span className="bubble__error">{message.error}</span> : null}
      </p>
      {children}
    </li>
  );
}
