/** A made-up example of the texts a customer gets, drawn as a phone conversation. Decorative. */
export function TextConversation() {
  return (
    <figure className="landing-phone" aria-label="Example: a customer takes a cancelled slot by text">
      <div className="landing-phone__screen">
        <p className="landing-phone__from">Bella Salon</p>
        <p className="landing-bubble landing-bubble--in">
          Bella Salon: a 3:00 pm haircut slot just opened today. Reply YES to take it.
        </p>
        <p className="landing-bubble landing-bubble--out">YES</p>
        <p className="landing-bubble landing-bubble--in">It's yours! See you today at 3:00 pm.</p>
      </div>
      <figcaption className="landing-phone__caption">
        The first YES gets the slot; the rest are told it's taken.
      </figcaption>
    </figure>
  );
}
