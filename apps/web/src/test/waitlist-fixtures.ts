import type {
  AlertsToday,
  Customer,
  Message,
  MessageTemplate,
  Offer,
  Opening,
  OpeningDetail,
  OpeningPreview,
  PlannedOffer,
  Service,
  StaffMember,
} from '@waitlist/contract';
import { customerWords, messageTemplateKeys } from '@waitlist/contract';

let nextId = 1;
/** A uuid-shaped id, different every call. */
export const uuid = () => `00000000-0000-4000-8000-${String(nextId++).padStart(12, '0')}`;

export function makeCustomer(overrides: Partial<Customer> = {}): Customer {
  return {
    id: uuid(),
    name: 'Maria Lopez',
    phone: '+12125550143',
    notes: '',
    status: 'waiting',
    position: 1,
    consentMethod: 'verbal',
    consentedAt: '2030-01-02T15:00:00.000Z',
    optedOut: false,
    optedOutAt: null,
    preferences: [],
    firstTextSent: false,
    serviceId: null,
    staffId: null,
    timeZone: null,
    language: 'en',
    vip: false,
    pinned: false,
    createdAt: '2030-01-02T15:00:00.000Z',
    updatedAt: '2030-01-02T15:00:00.000Z',
    ...overrides,
  };
}

/** n customers named Customer 1…n with distinct phones, in waitlist order. */
export const customers = (count: number) =>
  Array.from({ length: count }, (_, index) =>
    makeCustomer({
      name: `Customer ${index + 1}`,
      phone: `+1212555${String(1000 + index).slice(-4)}`,
      position: index + 1,
    }),
  );

export type WaitlistAnswerOptions = {
  /** Each gets its place in line as the server counts it (in this order), unless it carries its own. */
  customers?: (Customer & { place?: number | null })[];
  count?: number;
  cap?: number | null;
  plan?: string;
  readOnly?: boolean;
  readOnlyReason?: string | null;
};

export function waitlistAnswer(options: WaitlistAnswerOptions = {}) {
  const list = options.customers ?? [];
  let inLine = 0;
  const data = list.map((customer) => {
    const waits = customer.status === 'waiting' || customer.status === 'offered';
    if (waits) inLine += 1;
    return { ...customer, place: customer.place !== undefined ? customer.place : waits ? inLine : null };
  });
  return {
    body: {
      success: true,
      data,
      count: options.count ?? list.length,
      cap: options.cap === undefined ? 25 : options.cap,
      plan: options.plan ?? 'free_trial',
      readOnly: options.readOnly ?? false,
      readOnlyReason: options.readOnlyReason ?? null,
    },
  };
}

export const templatesAnswer = (overrides: Partial<Record<MessageTemplate['key'], string>> = {}) => ({
  body: {
    success: true,
    data: messageTemplateKeys.map((key) => ({
      key,
      body: overrides[key] ?? customerWords().templates[key],
      isDefault: !overrides[key],
    })),
  },
});

export function makeMessage(overrides: Partial<Message> = {}): Message {
  return {
    id: uuid(),
    customerId: null,
    openingId: null,
    direction: 'out',
    fromNumber: '+15555550100',
    toNumber: '+12125550143',
    body: 'Hi Maria',
    segments: 1,
    encoding: 'GSM-7',
    status: 'delivered',
    error: null,
    createdAt: '2030-01-03T15:00:00.000Z',
    sentAt: '2030-01-03T15:00:01.000Z',
    deliveredAt: '2030-01-03T15:00:02.000Z',
    ...overrides,
  };
}

export function makeOpening(overrides: Partial<Opening> = {}): Opening {
  return {
    id: uuid(),
    startsAt: '2030-01-03T20:30:00.000Z',
    durationMinutes: 60,
    service: 'Haircut',
    priceCents: 4500,
    serviceId: null,
    staffId: null,
    staffName: null,
    status: 'open',
    mode: 'all',
    waveSize: null,
    claimWindowMinutes: null,
    nextWaveAt: null,
    currentWave: 1,
    winner: null,
    filledAt: null,
    createdAt: '2030-01-03T18:00:00.000Z',
    localDate: '2030-01-03',
    stats: { sent: 3, delivered: 2, replies: 0, offered: 3 },
    ...overrides,
  };
}

export function makeOffer(overrides: Partial<Offer> = {}): Offer {
  return {
    customerId: uuid(),
    name: 'Maria Lopez',
    phone: '+12125550143',
    wave: 1,
    sentAt: '2030-01-03T18:00:01.000Z',
    status: 'sent',
    optedOut: false,
    question: null,
    toldAt: null,
    rank: 1,
    reason: '',
    sendAt: null,
    skipReason: null,
    ...overrides,
    outcome:
      overrides.outcome ??
      outcomeOf({
        status: overrides.status ?? 'sent',
        optedOut: overrides.optedOut ?? false,
        skipReason: overrides.skipReason ?? null,
      }),
  };
}

/** The server's outcome for an offer without a "told" time (openings.repo.ts offerOutcome). */
function outcomeOf(offer: Pick<Offer, 'status' | 'optedOut' | 'skipReason'>): Offer['outcome'] {
  if (offer.status === 'won') return 'claimed';
  if (offer.status === 'declined') return 'backed_out';
  if (offer.status === 'released') return 'released';
  if (offer.optedOut) return 'opted_out';
  if (offer.status === 'held') return 'waiting_quiet_hours';
  if (offer.status === 'skipped' && offer.skipReason === 'quiet_hours') return 'not_texted_quiet_hours';
  if (offer.status === 'skipped' && offer.skipReason === 'daily_cap') return 'not_texted_daily_cap';
  return ({ lost: 'no_answer', sent: 'texted', pending: 'next_wave', skipped: 'not_texted' } as const)[
    offer.status
  ];
}

export const openingDetail = (
  opening: Opening,
  offers: Offer[] = [],
  releaseText: string | null = null,
): OpeningDetail => ({
  ...opening,
  offers,
  releaseText,
});

export function openingsAnswer(
  options: {
    openings?: Opening[];
    alertsToday?: Partial<AlertsToday>;
    readOnly?: boolean;
    readOnlyReason?: string | null;
    timeZone?: string;
  } = {},
) {
  return {
    body: {
      success: true,
      data: options.openings ?? [],
      alertsToday: { used: 0, limit: 1, resetsAt: '2030-01-04T05:00:00.000Z', ...options.alertsToday },
      timeZone: options.timeZone ?? 'America/New_York',
      readOnly: options.readOnly ?? false,
      readOnlyReason: options.readOnlyReason ?? null,
    },
  };
}

export const makeService = (overrides: Partial<Service> = {}): Service => ({
  id: uuid(),
  name: 'Haircut',
  durationMinutes: 45,
  priceCents: 4500,
  ...overrides,
});

export const makeStaff = (overrides: Partial<StaffMember> = {}): StaffMember => ({
  id: uuid(),
  name: 'Ana',
  ...overrides,
});

/** GET /services and GET /staff answering with these lists. */
export const servicesAnswers = (services: Service[] = [], staff: StaffMember[] = []) => ({
  'GET /services': { body: { success: true, data: services } },
  'GET /staff': { body: { success: true, data: staff } },
});

export function makePlannedOffer(overrides: Partial<PlannedOffer> = {}): PlannedOffer {
  return {
    customerId: uuid(),
    name: 'Maria Lopez',
    rank: 1,
    wave: 1,
    reason: '1st: 1st on the waitlist',
    sendAt: new Date().toISOString(),
    skipReason: null,
    ...overrides,
  };
}

/** POST /openings/preview's answer: one customer texted now unless told otherwise. */
export function previewAnswer(overrides: Partial<OpeningPreview> = {}) {
  const offers = overrides.offers ?? [makePlannedOffer()];
  const data: OpeningPreview = {
    fitting: offers.length,
    mode: 'auto',
    waveSize: null,
    claimWindowMinutes: null,
    waves: 1,
    firstWave: offers.filter((offer) => offer.wave === 1 && !offer.skipReason).length,
    expectedTexts: offers.length,
    expectedFill: 0.5,
    firstTextAt: offers[0]?.sendAt ?? null,
    offers,
    ...overrides,
  };
  return { body: { success: true, data } };
}
