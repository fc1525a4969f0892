/** An instant as an iCalendar UTC date-time (20261201T150000Z). */
export const icsStamp = (instant: Date) => instant.toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');

/** An ICS feed as a booking tool publishes it: one 30-minute VEVENT per event. */
export const icsFeed = (...events: { uid: string; title: string; start: Date }[]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//booking tool//EN',
    ...events.flatMap((event) => [
      'BEGIN:VEVENT',
      `UID:${event.uid}`,
      `DTSTAMP:${icsStamp(event.start)}`,
      `DTSTART:${icsStamp(event.start)}`,
      'DURATION:PT30M',
      `SUMMARY:${event.title}`,
      'END:VEVENT',
    ]),
    'END:VCALENDAR',
    '',
  ].join('\r\n');
