/** A payment the provider refused; `message` is safe to show the owner (e.g. "Your card was declined."). */
export class PaymentError extends Error {
  constructor(
    message: string,
    readonly code:
      | 'card_declined'
      | 'insufficient_funds'
      | 'invalid_card'
      | 'no_payment_method'
      | 'not_found',
  ) {
    super(message);
    this.name = 'PaymentError';
  }
}
