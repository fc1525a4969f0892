import { useCurrentUser } from '../../../lib/auth.tsx';
import { BusinessDetailsCard } from '../components/business-details-card.tsx';
import { SettingsSubpage } from '../components/settings-subpage.tsx';
import { TimeZoneCard } from '../components/time-zone-card.tsx';

/** /settings/business: the business's name and address, and its time zone. */
export function BusinessSettingsPage() {
  const user = useCurrentUser();
  return (
    <SettingsSubpage
      title="Business & time zone"
      lead="Who your customers hear from, and the clock your openings run on."
    >
      <TimeZoneCard />
      <BusinessDetailsCard key={`${user.id}-${user.businessName}`} user={user} />
    </SettingsSubpage>
  );
}
