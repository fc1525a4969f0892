/** The Settings area's pages, grouped as an owner thinks of them (issue 39); the index and the side nav list them. */
export const settingsGroups = [
  {
    to: '/settings/business',
    name: 'Business & time zone',
    line: 'Your business’s name and address, and the time zone openings are typed in.',
  },
  {
    to: '/settings/text-number',
    name: 'Text number',
    line: 'The number your texts come from and customers reply to.',
  },
  {
    to: '/settings/offer-rules',
    name: 'Offer rules',
    line: 'The hours offers may be texted, and how many a customer gets a day.',
  },
  {
    to: '/settings/calendar',
    name: 'Calendar',
    line: 'The calendar you book in: its cancellations become openings.',
  },
] as const;
