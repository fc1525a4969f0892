import { createTexting } from '../features/messaging/texting.ts';
import { businessNumbers, textingCustomers } from '../wiring.ts';

/** Texting as composition.ts builds it, for tests that queue a text in their own transaction. */
export const { enqueueSms, enqueueSmsMany } = createTexting(textingCustomers, businessNumbers);
