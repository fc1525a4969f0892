import { PhoneNumberSection } from '../features/billing/components/phone-number-section.tsx';
import { CalendarCard } from '../features/calendar/components/calendar-card.tsx';
import { SettingsSubpage } from '../features/settings/components/settings-subpage.tsx';

/**
 * The Settings pages whose contents belong to other features (issue 39), composed here because features do
 * not import each other: the text number (billing's, also on the Billing tab as SPEC §2 draws it) and the
 * connected calendars.
 */
export function TextNumberSettingsRoute() {
  return (
    <SettingsSubpage
      title="Text number"
      lead="Your waitlist’s texts come from this number, and customers’ replies come back to it."
    >
      <PhoneNumberSection />
    </SettingsSubpage>
  );
}

export function CalendarSettingsRoute() {
  return (
    <SettingsSubpage
      title="Calendar"
      lead="Connect the calendar you book in. When an appointment there is cancelled, the slot is offered to your waitlist, and a claimed slot is booked back into it."
    >
      <CalendarCard />
    </SettingsSubpage>
  );
}
