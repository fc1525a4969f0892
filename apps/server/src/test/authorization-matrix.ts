/**
 * The authorization matrix (issue 12): for every route of the app's route table, the status each kind of
 * caller gets. `authorization-matrix.test.ts` sends every row as every role and compares; a route without a
 * row here fails that test with its name, so a new route cannot ship without deciding who may call it.
 *
 * Adding a route? Add ONE row below, keyed `METHOD /url` exactly as Fastify registers it (`:id` params).
 *
 * Roles: `visitor` (no session), `unverified` (registered, email not verified), `verified` (verified, no
 * business details), `owner` (a full owner with a text number), `otherOwner` (another full owner, sent the
 * owner's ids), `admin` (a full owner listed in ADMIN_EMAILS). Requests carry `{}` as body unless the row
 * gives one, so the gates answer before validation: 401 no session, 403 not allowed, then 400 for the empty
 * body. Rows of routes with an owner's id give a valid body, so the ownership check itself answers (404).
 */

export const roles = ['visitor', 'unverified', 'verified', 'owner', 'otherOwner', 'admin'] as const;
export type Role = (typeof roles)[number];
export type Expected = Record<Role, number>;

/** Resources of `owner` that a row can put in its path (`:id`) or body. */
export interface Fixtures {
  ownerId: string;
  waitlistEntryId: string;
  openingId: string;
  paymentMethodId: string;
  serviceId: string;
  staffId: string;
}

export interface MatrixRow {
  expect: Expected;
  /** On a public HOST with LOCAL_TOOLS=admin (the local tools only). */
  publicHost?: Expected;
  /** Which fixture fills `:id`; any other param gets `params`' value, else a random string. */
  id?: keyof Fixtures;
  params?: Record<string, string>;
  body?: (fixtures: Fixtures) => unknown;
  query?: string;
  /** The call ends the caller's session or account: each role gets fresh users. */
  fresh?: boolean;
}

const row = (expect: Expected, extra: Omit<MatrixRow, 'expect'> = {}): MatrixRow => ({ expect, ...extra });
/** Everyone gets the same answer (public routes). */
const everyone = (status: number): Expected => ({
  visitor: status,
  unverified: status,
  verified: status,
  owner: status,
  otherOwner: status,
  admin: status,
});
/** Any session; visitors 401. */
const signedIn = (status: number, unverified = status, verified = status): Expected => ({
  visitor: 401,
  unverified,
  verified,
  owner: status,
  otherOwner: status,
  admin: status,
});
/** Full owners only (verified with business details): 401 visitors, 403 the others. */
const fullOwners = (status: number, otherOwner = status): Expected => ({
  visitor: 401,
  unverified: 403,
  verified: 403,
  owner: status,
  otherOwner,
  admin: status,
});
/** A full owner's resource by id: its owner `status`, every other owner and the admin 404 (never 403). */
const ownersResource = (status: number, others = 404): Expected => ({
  visitor: 401,
  unverified: 403,
  verified: 403,
  owner: status,
  otherOwner: others,
  admin: others,
});
/** A well-formed id that names nothing: the ownership check answers 404. */
const NO_SUCH_UUID = '00000000-0000-4000-8000-000000000000';
/** A local tool: anyone on loopback; on a public HOST with LOCAL_TOOLS=admin, admins only. */
const tool = (status: number, extra: Omit<MatrixRow, 'expect' | 'publicHost'> = {}): MatrixRow => ({
  expect: everyone(status),
  publicHost: { visitor: 401, unverified: 403, verified: 403, owner: 403, otherOwner: 403, admin: status },
  ...extra,
});

export const authorizationMatrix: Record<string, MatrixRow> = {
  // ---- documentation and system: public ----
  'GET /api/docs/openapi.json': row(everyone(200)),
  'GET /api/docs': row(everyone(200)),
  'GET /api/docs/': row(everyone(302)),
  'GET /api/docs/reference.js': row(everyone(200)),
  'GET /api/docs/reference.css': row(everyone(200)),
  // Public, and the same for everyone: none names the database or a provider (issue 24, system.test.ts).
  'GET /api/v1/health': row(everyone(200)),
  'GET /api/v1/health/live': row(everyone(200)),
  'GET /api/v1/health/ready': row(everyone(200)),
  // Prometheus: only with `Authorization: Bearer <METRICS_TOKEN>`, which is not a session (issue 17).
  'GET /metrics': row(everyone(401)),
  'GET /api/v1/config': row(everyone(200)),

  // ---- auth: public entry points answer the empty body with 400 ----
  'POST /api/v1/auth/register': row(everyone(400)),
  'POST /api/v1/auth/login': row(everyone(400)),
  'POST /api/v1/auth/external': row(everyone(400)),
  'POST /api/v1/auth/forgotpassword': row(everyone(400)),
  'PUT /api/v1/auth/resetpassword/:resettoken': row(everyone(400), {
    params: { resettoken: 'not-a-real-token' },
    body: () => ({ password: 'new-secret-1' }),
  }),

  // ---- auth: the caller's own account ----
  'POST /api/v1/auth/logout': row(signedIn(200), { fresh: true }),
  'GET /api/v1/auth/me': row(signedIn(200)),
  'POST /api/v1/auth/send-verification': row(signedIn(400, 200, 400)),
  'POST /api/v1/auth/verify-account': row(signedIn(400)),
  'POST /api/v1/auth/business-verification': row(signedIn(400)),
  'DELETE /api/v1/auth/account': row(signedIn(200), { fresh: true }),
  'PUT /api/v1/auth/updatedetails': row(signedIn(400)),
  'POST /api/v1/auth/confirm-email': row(signedIn(400)),
  'DELETE /api/v1/auth/pending-email': row(signedIn(400)),
  'PUT /api/v1/auth/updatepassword': row(signedIn(400)),
  // The owner's own id answers; anyone else's id is refused before the body is read.
  'PUT /api/v1/users/:id': row(
    { visitor: 401, unverified: 403, verified: 403, owner: 200, otherOwner: 403, admin: 403 },
    { id: 'ownerId', body: () => ({ firstName: 'Matrix' }) },
  ),

  // ---- web push (issue 14): the caller's own devices ----
  'GET /api/v1/push/public-key': row(signedIn(200)),
  // An endpoint on a private address: 400; another account's endpoint: 409 (issue 24, push.test.ts).
  'POST /api/v1/push/subscriptions': row(signedIn(400)),
  'DELETE /api/v1/push/subscriptions': row(signedIn(200)),

  // ---- admin ----
  'GET /api/v1/admin/users': row({
    visitor: 401,
    unverified: 403,
    verified: 403,
    owner: 403,
    otherOwner: 403,
    admin: 200,
  }),

  // ---- billing (SPEC's /stripe/* paths, local provider) ----
  'GET /api/v1/stripe/pricing': row(fullOwners(200)),
  'GET /api/v1/stripe/subscription': row(fullOwners(200)),
  'GET /api/v1/stripe/plan-change-preview': row(fullOwners(200), {
    query: 'planType=GROWTH&billingPeriod=monthly',
  }),
  'POST /api/v1/stripe/create-checkout-session': row(fullOwners(400)),
  'POST /api/v1/stripe/update-subscription': row(fullOwners(400)),
  'POST /api/v1/stripe/update-subscription-with-existing-payment': row(fullOwners(400)),
  // The roles are on the free trial: nothing to cancel or resume.
  'POST /api/v1/stripe/cancel-subscription': row(fullOwners(409), { fresh: true }),
  'POST /api/v1/stripe/resume-subscription': row(fullOwners(409), { fresh: true }),
  'GET /api/v1/stripe/payment-methods': row(fullOwners(200)),
  // Another owner's card id cannot be attached, made default or removed.
  'POST /api/v1/stripe/payment-methods': row(ownersResource(200), {
    body: (f) => ({ paymentMethodId: f.paymentMethodId }),
  }),
  'POST /api/v1/stripe/payment-methods/default': row(ownersResource(200), {
    body: (f) => ({ paymentMethodId: f.paymentMethodId }),
  }),
  'DELETE /api/v1/stripe/payment-methods/:id': row(ownersResource(200), { id: 'paymentMethodId' }),
  'GET /api/v1/stripe/invoices': row(fullOwners(200)),
  'POST /api/v1/stripe/setup-intent': row(fullOwners(200)),
  'POST /api/v1/stripe/update-billing-details': row(fullOwners(200)),
  'POST /api/v1/stripe/create-portal-session': row(fullOwners(200)),
  'POST /api/v1/billing/local/setup-intents/confirm': row(fullOwners(400)),
  'POST /api/v1/notifications/plan-change': row(fullOwners(400)),
  'POST /api/v1/notifications/plan-cancel': row(fullOwners(200)),
  'POST /api/v1/notifications/billing-update': row(fullOwners(200)),
  // The local provider's hosted pages: the unguessable session or invoice id is the key (as at Stripe).
  'GET /billing/local/checkout/:id': row(everyone(404)),
  'POST /billing/local/checkout/:id': row(everyone(404)),
  'GET /billing/local/portal/:id': row(everyone(404)),
  'GET /billing/local/invoices/:id': row(everyone(404)),
  'GET /billing/local/invoices/:id/pdf': row(everyone(404)),

  // ---- waitlist, templates, settings ----
  'GET /api/v1/waitlist': row(fullOwners(200)),
  'POST /api/v1/waitlist': row(fullOwners(400)),
  // Another owner's entry ids are refused as a bad list (400), never reordered.
  'POST /api/v1/waitlist/reorder': row(ownersResource(200, 400), {
    body: (f) => ({ ids: [f.waitlistEntryId] }),
  }),
  'POST /api/v1/waitlist/import/preview': row(fullOwners(400)),
  'POST /api/v1/waitlist/import': row(fullOwners(400)),
  'PATCH /api/v1/waitlist/:id': row(ownersResource(200), {
    id: 'waitlistEntryId',
    body: () => ({ notes: 'matrix' }),
  }),
  'DELETE /api/v1/waitlist/:id': row(ownersResource(200), { id: 'waitlistEntryId' }),
  // Restoring a live customer answers them as they are (issue 27).
  'POST /api/v1/waitlist/:id/restore': row(ownersResource(200), { id: 'waitlistEntryId' }),
  'GET /api/v1/waitlist/:id/messages': row(ownersResource(200), { id: 'waitlistEntryId' }),
  'POST /api/v1/waitlist/:id/messages': row(ownersResource(201), {
    id: 'waitlistEntryId',
    body: () => ({ body: 'Hello from the matrix' }),
  }),
  'GET /api/v1/inbox': row(fullOwners(200)),
  'GET /api/v1/inbox/unread': row(fullOwners(200)),
  'GET /api/v1/inbox/:id': row(ownersResource(200), { id: 'waitlistEntryId' }),
  'POST /api/v1/inbox/:id/read': row(ownersResource(200), { id: 'waitlistEntryId' }),
  'POST /api/v1/inbox/:id/reply': row(ownersResource(201), {
    id: 'waitlistEntryId',
    body: () => ({ body: 'Hello from the inbox' }),
  }),
  'GET /api/v1/join-link': row(fullOwners(200)),
  // The public join page's API: no session needed; an unknown link is 404 for everyone.
  'GET /api/v1/join/:slug': row(everyone(404), { params: { slug: 'no-such-link' } }),
  'POST /api/v1/join/:slug': row(everyone(400), { params: { slug: 'no-such-link' } }),
  'GET /api/v1/join/:slug/qr.svg': row(everyone(404), { params: { slug: 'no-such-link' } }),
  'GET /api/v1/join/:slug/qr.png': row(everyone(404), { params: { slug: 'no-such-link' } }),
  // Issue 24: the join page's proof-of-work challenge, public like the page.
  'GET /api/v1/join/:slug/challenge': row(everyone(404), { params: { slug: 'no-such-link' } }),
  'GET /api/v1/message-templates': row(fullOwners(200)),
  'PUT /api/v1/message-templates/:key': row(fullOwners(400), { params: { key: 'offer' } }),
  'GET /api/v1/settings/time-zone': row(fullOwners(200)),
  'PUT /api/v1/settings/time-zone': row(fullOwners(400)),
  // Issue 28: Spanish texts in plain letters.
  'GET /api/v1/settings/plain-letters': row(fullOwners(200)),
  'PUT /api/v1/settings/plain-letters': row(fullOwners(400)),

  // ---- openings and earnings ----
  'GET /api/v1/openings': row(fullOwners(200)),
  'POST /api/v1/openings': row(fullOwners(400)),
  'GET /api/v1/openings/:id': row(ownersResource(200), { id: 'openingId' }),
  'POST /api/v1/openings/:id/close': row(ownersResource(200), { id: 'openingId' }),
  'POST /api/v1/openings/preview': row(fullOwners(400)),
  // The fixture opening is open, not filled: its owner is told there is no claim to release.
  'POST /api/v1/openings/:id/release': row(ownersResource(400), { id: 'openingId' }),
  'GET /api/v1/dashboard/earnings': row(fullOwners(200)),
  'PUT /api/v1/dashboard/weekly-summary': row(signedIn(400)),

  // ---- services, staff and offer rules (issue 26): another owner's id is 404, never theirs to change ----
  'GET /api/v1/services': row(fullOwners(200)),
  'POST /api/v1/services': row(fullOwners(400)),
  'PUT /api/v1/services/:id': row(ownersResource(200), {
    id: 'serviceId',
    body: (f) => ({ name: `Matrix ${f.serviceId.slice(0, 8)}`, durationMinutes: 30 }),
  }),
  'DELETE /api/v1/services/:id': row(ownersResource(200), { id: 'serviceId' }),
  'GET /api/v1/staff': row(fullOwners(200)),
  'POST /api/v1/staff': row(fullOwners(400)),
  'PUT /api/v1/staff/:id': row(ownersResource(200), {
    id: 'staffId',
    body: (f) => ({ name: `Matrix ${f.staffId.slice(0, 8)}` }),
  }),
  'DELETE /api/v1/staff/:id': row(ownersResource(200), { id: 'staffId' }),
  'GET /api/v1/settings/offers': row(fullOwners(200)),
  'PUT /api/v1/settings/offers': row(fullOwners(400)),

  // ---- connected calendars (issue 29): full owners only; a connection or proposal of no one's is 404 ----
  'GET /api/v1/calendar/connections': row(fullOwners(200)),
  'POST /api/v1/calendar/connections': row(fullOwners(400)),
  'PATCH /api/v1/calendar/connections/:id': row(fullOwners(404), { params: { id: NO_SUCH_UUID } }),
  'DELETE /api/v1/calendar/connections/:id': row(fullOwners(404), { params: { id: NO_SUCH_UUID } }),
  'POST /api/v1/calendar/connections/:id/sync': row(fullOwners(404), { params: { id: NO_SUCH_UUID } }),
  'GET /api/v1/calendar/proposals': row(fullOwners(200)),
  'POST /api/v1/calendar/proposals/:id/preview': row(fullOwners(404), { params: { id: NO_SUCH_UUID } }),
  'POST /api/v1/calendar/proposals/:id/open': row(fullOwners(404), { params: { id: NO_SUCH_UUID } }),
  'POST /api/v1/calendar/proposals/:id/dismiss': row(fullOwners(404), { params: { id: NO_SUCH_UUID } }),
  'GET /api/v1/calendar/day': row(fullOwners(200), { query: 'date=2026-11-27&days=7' }),
  // Google not configured here: the consent link is refused in words; the callback always sends the owner
  // back to the Calendar tab (with the reason), signed in or not: its signed state and the browser's cookie
  // decide, not a session.
  'POST /api/v1/calendar/oauth/:kind/start': row(fullOwners(400), { params: { kind: 'google' } }),
  'GET /api/v1/calendar/oauth/:kind/callback': row(everyone(303), { params: { kind: 'microsoft' } }),
  // The account a consent came back with, waiting for its owner's yes (issue 38): another owner's is 404.
  'GET /api/v1/calendar/oauth/pending/:id': row(fullOwners(404), { params: { id: NO_SUCH_UUID } }),
  'POST /api/v1/calendar/oauth/pending/:id/confirm': row(fullOwners(404), { params: { id: NO_SUCH_UUID } }),
  'DELETE /api/v1/calendar/oauth/pending/:id': row(fullOwners(404), { params: { id: NO_SUCH_UUID } }),
  // Public: trusted only by the channel's secret, which a role's session is not.
  'POST /api/v1/calendar/push/google': row(everyone(401)),
  'POST /api/v1/calendar/push/microsoft': row(everyone(401)),

  // ---- the business's text number ----
  'GET /api/v1/phone-number': row(fullOwners(200)),
  // Every role with a business already has a verified number.
  'POST /api/v1/phone-number/request': row(fullOwners(409)),
  'POST /api/v1/phone-number/verify': row(fullOwners(200)),

  // ---- provider webhooks: no session, signed by the provider; refused while Plivo is not configured ----
  'POST /api/v1/webhooks/plivo/message': row(everyone(503)),
  'POST /api/v1/webhooks/plivo/status': row(everyone(503)),

  // ---- the local tools (decision 0007) ----
  'GET /api/v1/dev/mailbox': tool(200),
  'GET /dev/mailbox': tool(200),
  'GET /api/v1/dev/phone/messages': tool(200),
  'POST /api/v1/dev/phone/reply': tool(400),
  'POST /dev/phone/reply': tool(400),
  'GET /dev/phone': tool(200),
  'POST /api/v1/dev/billing/advance': tool(400),
  'POST /api/v1/dev/billing/reset': tool(200),
  'GET /api/v1/dev/billing/clock': tool(200),
  // The local calendar (issue 29): CalDAV, its page and its JSON twin; an unknown business is 404.
  'PROPFIND /dev/calendar/dav/:userId/': tool(404),
  'REPORT /dev/calendar/dav/:userId/': tool(404),
  'PROPFIND /dev/calendar/dav/:userId/:object': tool(404),
  'GET /dev/calendar/dav/:userId/:object': tool(404),
  'PUT /dev/calendar/dav/:userId/:object': tool(404),
  'DELETE /dev/calendar/dav/:userId/:object': tool(404),
  'GET /dev/calendar': tool(200),
  'POST /dev/calendar/events': tool(400),
  'POST /dev/calendar/events/:userId/:uid': tool(400),
  'GET /api/v1/dev/calendar/events': tool(400),
  'POST /api/v1/dev/calendar/events': tool(400),
  'PATCH /api/v1/dev/calendar/events/:userId/:uid': tool(400),
  'DELETE /api/v1/dev/calendar/events/:userId/:uid': tool(404),
};
