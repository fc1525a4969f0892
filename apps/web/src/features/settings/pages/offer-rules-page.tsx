import { OfferRulesCard } from '../components/offer-rules-card.tsx';
import { SettingsSubpage } from '../components/settings-subpage.tsx';

/** /settings/offer-rules: when offers may be texted and how many a customer gets a day (issue 26, moved in 39). */
export function OfferRulesPage() {
  return (
    <SettingsSubpage
      title="Offer rules"
      lead="Carriers and the TCPA expect no marketing texts at night, so offers go out only in this window of each customer’s day, while answers to a customer’s own texts (YES, STOP, HELP) go out at once."
    >
      <OfferRulesCard />
    </SettingsSubpage>
  );
}
