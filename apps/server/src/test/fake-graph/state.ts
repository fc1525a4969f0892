import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/** The shapes of the fake Graph (fake-graph.ts) and the state its parts share. */

export interface FakeGraphAttendee {
  address: string;
  response: 'none' | 'organizer' | 'tentativelyAccepted' | 'accepted' | 'declined' | 'notResponded';
  type?: 'required' | 'optional' | 'resource';
}

export interface FakeGraphEvent {
  id: string;
  calendarId: string;
  iCalUId: string;
  subject: string;
  /** ISO UTC. */
  start: string;
  end: string;
  isAllDay: boolean;
  isCancelled: boolean;
  type: 'singleInstance' | 'occurrence' | 'exception';
  seriesMasterId: string | null;
  originalStart: string | null;
  organizer: string;
  attendees: FakeGraphAttendee[];
  transactionId: string | null;
  singleValueExtendedProperties: { id: string; value: string }[];
  body: { contentType: string; content: string } | null;
  deleted: boolean;
  /** The change counter when it last changed (what delta tokens compare). */
  version: number;
}

export interface FakeGraphSubscription {
  id: string;
  resource: string;
  changeType: string;
  notificationUrl: string;
  lifecycleNotificationUrl: string | null;
  clientState: string | null;
  expirationDateTime: string;
}

export interface RecordedGraphRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  status: number;
}

export type GraphLifecycle = 'reauthorizationRequired' | 'subscriptionRemoved' | 'missed';

export interface FakeGraph {
  url: string;
  clientId: string;
  clientSecret: string;
  owner: string;
  calendars: { id: string; name: string; isDefaultCalendar: boolean }[];
  events: Map<string, FakeGraphEvent>;
  subscriptions: Map<string, FakeGraphSubscription>;
  requests: RecordedGraphRequest[];
  /** Items per delta page (Graph's own default is larger; small here so paging is exercised). */
  pageSize: number;
  /** The owner consenting: a one-use code the token endpoint accepts for `redirectUri`. */
  issueCode(redirectUri: string, scope?: string): string;
  /** Every access token issued so far stops working (401 InvalidAuthenticationToken). */
  expireAccessTokens(): void;
  /** Every refresh token issued so far is refused (invalid_grant), like a revoked consent. */
  revokeRefreshTokens(): void;
  /** Every delta and skip token is forgotten (410 SyncStateNotFound). */
  expireDeltaTokens(): void;
  addEvent(
    calendarId: string,
    event: Partial<FakeGraphEvent> & { start: string; end: string },
  ): FakeGraphEvent;
  /** Moves, renames, cancels (`isCancelled: true`) or changes the attendees of an event. */
  changeEvent(id: string, change: Partial<FakeGraphEvent>): FakeGraphEvent;
  deleteEvent(id: string): void;
  /** POSTs a change notification for `subscriptionId` to its notificationUrl; answers the endpoint's status. */
  notify(
    subscriptionId: string,
    change?: { changeType?: string; eventId?: string; clientState?: string },
  ): Promise<number>;
  /** POSTs a lifecycle notification to the subscription's lifecycleNotificationUrl; answers its status. */
  lifecycle(subscriptionId: string, event: GraphLifecycle, clientState?: string): Promise<number>;
  close(): Promise<void>;
}

export interface DeltaRound {
  calendarId: string;
  from: number;
  to: number;
  /** Changes after this version are what the next call of the delta link answers. */
  since: number;
}

export interface GraphState {
  fake: FakeGraph;
  codes: Map<string, { redirectUri: string; scope: string }>;
  accessTokens: Set<string>;
  /** refresh token → the scope it was granted for. */
  refreshTokens: Map<string, string>;
  /** delta token → the round it continues. */
  rounds: Map<string, DeltaRound>;
  /** skip token → the rest of a round's items. */
  pages: Map<string, { items: unknown[]; next: DeltaRound }>;
  version: number;
}

export type Answer = { status: number; body?: unknown; text?: string };

/** Graph's limit for subscriptions on Outlook events: 4230 minutes (just under three days). */
export const MAX_EVENT_SUBSCRIPTION_MINUTES = 4230;
export const TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';

export const randomToken = () => randomBytes(24).toString('base64url');

export const graphError = (status: number, code: string, message: string): Answer => ({
  status,
  body: {
    error: { code, message, innerError: { 'request-id': randomUUID(), date: new Date().toISOString() } },
  },
});

export const oauthError = (status: number, error: string, description: string): Answer => ({
  status,
  body: { error, error_description: description, error_codes: [70000], trace_id: randomUUID() },
});

export const notFound = () =>
  graphError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');

export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
