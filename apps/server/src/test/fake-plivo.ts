import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server speaking the subset of Plivo's REST API v1 the Plivo provider calls: Message create
 * (answers a message_uuid), PhoneNumber search and rent, Number details, Application list/create/update.
 * Basic auth is checked against the account's auth id and token. Every request is recorded (with the time
 * it arrived), and `failNext(n)` makes the next n calls answer 500 without doing anything, like an outage.
 */

export interface RecordedPlivoRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: Record<string, unknown> | null;
  headers: IncomingHttpHeaders;
  /** performance.now() when the request arrived. */
  at: number;
  /** The answer's status. */
  status: number;
}

export interface FakePlivoMessage {
  uuid: string;
  src: string;
  dst: string;
  text: string;
  url: string | undefined;
  /** When it was accepted (Message List's message_time). */
  time: Date;
  /** Which client sent it, when its PLIVO_API_URL ends in /via-<name> (chaos tells instances apart so). */
  via: string | undefined;
}

export interface FakePlivo {
  url: string;
  authId: string;
  authToken: string;
  requests: RecordedPlivoRequest[];
  /** Messages accepted (one per successful Message create). */
  messages: FakePlivoMessage[];
  /** Numbers offered by PhoneNumber search (Plivo's digits, no '+'); more are made up on demand, except for area code 000. */
  available: string[];
  rented: Map<string, { appId: string }>;
  applications: Map<string, { app_id: string; app_name: string; message_url: string }>;
  /** The registration each number reports on GET Number (10DLC), by number digits. */
  registration: Map<string, { sms_enabled?: boolean; tendlc_registration_status?: string }>;
  /** The next `count` API calls answer 500 (nothing is created). */
  failNext(count: number): void;
  /**
   * An outage until called again with null: every call answers `status` (nothing is created), or, with
   * `hangMs`, is held that long before it is handled.
   */
  outage(fault: { status: number } | { hangMs: number } | null): void;
  /** Called when a Message create was accepted, before the answer leaves (chaos kills an instance here). */
  onMessage: ((message: FakePlivoMessage) => Promise<void> | void) | undefined;
  close(): Promise<void>;
}

type Fault = { status: number } | { hangMs: number } | null;

interface PlivoState {
  fake: Omit<FakePlivo, 'url' | 'close'>;
  authId: string;
  expectedAuth: string;
  /** How many of the next calls answer 500. */
  failures: number;
  /** Numbers made up so far by PhoneNumber search. */
  offered: number;
  fault: Fault;
}

/** One API call as a route sees it: the path after `/v1/Account/{authId}/`, its JSON body, and how to answer. */
interface PlivoCall {
  method: string | undefined;
  rest: string;
  url: URL;
  body: Record<string, unknown>;
  /** The client's name when its PLIVO_API_URL ends in /via-<name>. */
  via: string | undefined;
  respond: (status: number, body: unknown) => number;
}

const apiId = () => randomUUID();

const send = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
  return status;
};

/** Message List (MDRs): outbound only here, filtered by numbers (E.164 or digits) and message_time, paged. */
function listMessages({ fake }: PlivoState, { url, respond }: PlivoCall) {
  const digits = (value: string | null) => value?.replace(/^\+/, '');
  const from = digits(url.searchParams.get('from_number'));
  const to = digits(url.searchParams.get('to_number'));
  const since = url.searchParams.get('message_time__gte');
  const sinceMs = since ? Date.parse(`${since.replace(' ', 'T')}Z`) : Date.now() - 86_400_000;
  const until = url.searchParams.get('message_time__lte');
  // Whole seconds, as Plivo's filter format has them: the upper bound takes its whole second.
  const untilMs = until ? Date.parse(`${until.replace(' ', 'T')}Z`) + 999 : Number.POSITIVE_INFINITY;
  const limit = Math.min(Number(url.searchParams.get('limit') ?? 20), 20);
  const offset = Number(url.searchParams.get('offset') ?? 0);
  const matching = fake.messages.filter(
    (m) =>
      (!from || digits(m.src) === from) &&
      (!to || digits(m.dst) === to) &&
      m.time.getTime() >= sinceMs &&
      m.time.getTime() <= untilMs,
  );
  const next = offset + limit < matching.length ? `${url.pathname}?offset=${offset + limit}` : null;
  const objects = [...matching]
    .reverse()
    .slice(offset, offset + limit)
    .map((m) => ({
      message_uuid: m.uuid,
      from_number: digits(m.src),
      to_number: digits(m.dst),
      message_direction: 'outbound',
      message_state: 'delivered',
      message_time: `${m.time.toISOString().slice(0, 19).replace('T', ' ')}+00:00`,
      units: 1,
    }));
  return respond(200, {
    api_id: apiId(),
    meta: { limit, offset, total_count: matching.length, next },
    objects,
  });
}

/** Message create (answered after `onMessage`, when set) and Message List. */
function messageRoutes(state: PlivoState, call: PlivoCall): number | undefined {
  const { fake } = state;
  const { method, rest, body, respond } = call;
  if (method === 'POST' && rest === 'Message/') {
    const { src, dst, text, url: callback } = body as Record<string, string | undefined>;
    if (!src || !dst || !text)
      return respond(400, { api_id: apiId(), error: 'src, dst and text are required' });
    if (!/^\+?\d{8,15}$/.test(dst)) return respond(400, { api_id: apiId(), error: 'invalid dst' });
    const uuid = randomUUID();
    const message = { uuid, src, dst, text, url: callback, time: new Date(), via: call.via };
    fake.messages.push(message);
    const answer = () =>
      respond(202, { api_id: apiId(), message: 'message(s) queued', message_uuid: [uuid] });
    if (!fake.onMessage) return answer();
    void Promise.resolve(fake.onMessage(message)).then(answer, answer);
    return 202;
  }
  if (method === 'GET' && rest === 'Message/') return listMessages(state, call);
  return undefined;
}

/** PhoneNumber search (an endless inventory) and rent, and Number details with its 10DLC registration. */
function numberRoutes(
  state: PlivoState,
  { method, rest, url, body, respond }: PlivoCall,
): number | undefined {
  const { fake } = state;
  if (method === 'GET' && rest === 'PhoneNumber/') {
    const pattern = url.searchParams.get('pattern') ?? '';
    const limit = Number(url.searchParams.get('limit') ?? 20);
    let matching = fake.available.filter((n) => n.startsWith(`1${pattern}`) && !fake.rented.has(n));
    if (matching.length === 0 && pattern !== '000') {
      // An endless inventory: make up a fresh number in the area code (or 415).
      state.offered += 1;
      const fresh = `1${(pattern || '415').padEnd(3, '5').slice(0, 3)}555${String(2000 + state.offered).padStart(4, '0')}`;
      fake.available.push(fresh);
      matching = [fresh];
    }
    const objects = matching.slice(0, limit).map((number) => ({
      number,
      country: 'UNITED STATES',
      type: 'fixed',
      sms_enabled: true,
      voice_enabled: true,
    }));
    return respond(200, {
      api_id: apiId(),
      meta: { limit, offset: 0, total_count: objects.length, next: null },
      objects,
    });
  }
  const rent = /^PhoneNumber\/(\d+)\/$/.exec(rest);
  if (method === 'POST' && rent) {
    const number = rent[1]!;
    if (!fake.available.includes(number) || fake.rented.has(number)) {
      return respond(404, { api_id: apiId(), error: 'number not available' });
    }
    fake.rented.set(number, { appId: String(body.app_id ?? '') });
    return respond(201, {
      api_id: apiId(),
      message: 'created',
      numbers: [{ number, status: 'Success' }],
      status: 'fulfilled',
    });
  }
  const details = /^Number\/(\d+)\/$/.exec(rest);
  if (method === 'GET' && details) {
    const number = details[1]!;
    if (!fake.rented.has(number)) return respond(404, { api_id: apiId(), error: 'not found' });
    const registration = fake.registration.get(number) ?? { tendlc_registration_status: 'IN_PROGRESS' };
    return respond(200, {
      api_id: apiId(),
      number,
      number_type: 'local',
      sms_enabled: registration.sms_enabled ?? true,
      tendlc_registration_status: registration.tendlc_registration_status ?? null,
      application: `/v1/Account/${state.authId}/Application/${fake.rented.get(number)!.appId}/`,
    });
  }
  return undefined;
}

/** Application list, create and update (its message_url). */
function applicationRoutes(
  { fake }: PlivoState,
  { method, rest, body, respond }: PlivoCall,
): number | undefined {
  if (method === 'GET' && rest === 'Application/') {
    const objects = [...fake.applications.values()];
    return respond(200, {
      api_id: apiId(),
      meta: { limit: 20, offset: 0, total_count: objects.length, next: null },
      objects,
    });
  }
  if (method === 'POST' && rest === 'Application/') {
    if (!body.app_name) return respond(400, { api_id: apiId(), error: 'app_name is required' });
    const appId = String(Date.now()) + String(fake.applications.size);
    fake.applications.set(appId, {
      app_id: appId,
      app_name: String(body.app_name),
      message_url: String(body.message_url ?? ''),
    });
    return respond(201, { api_id: apiId(), app_id: appId, message: 'created' });
  }
  const app = /^Application\/(\w+)\/$/.exec(rest);
  if (method === 'POST' && app) {
    const existing = fake.applications.get(app[1]!);
    if (!existing) return respond(404, { api_id: apiId(), error: 'not found' });
    if (body.message_url) existing.message_url = String(body.message_url);
    return respond(202, { api_id: apiId(), message: 'changed' });
  }
  return undefined;
}

/** Basic auth, forced failures and outages, the account prefix and the JSON body; then the routes. */
function handle(state: PlivoState, req: IncomingMessage, res: ServerResponse, rawBody: string): number {
  const url = new URL(req.url ?? '/', 'http://fake');
  const via = /^\/via-(\w+)(\/.*)$/.exec(url.pathname);
  if (via) url.pathname = via[2]!;
  if (req.headers.authorization !== state.expectedAuth)
    return send(res, 401, { api_id: apiId(), error: 'Authentication failed' });
  if (state.failures > 0) {
    state.failures -= 1;
    return send(res, 500, { api_id: apiId(), error: 'internal server error' });
  }
  const { fault } = state;
  if (fault && 'status' in fault) return send(res, fault.status, { api_id: apiId(), error: 'outage' });
  const prefix = `/v1/Account/${state.authId}/`;
  if (!url.pathname.startsWith(prefix)) return send(res, 404, { api_id: apiId(), error: 'not found' });
  const rest = url.pathname.slice(prefix.length);
  let body: Record<string, unknown> = {};
  if (rawBody) {
    if (!req.headers['content-type']?.includes('application/json')) {
      return send(res, 400, { api_id: apiId(), error: 'content type must be application/json' });
    }
    body = JSON.parse(rawBody);
  }
  const call: PlivoCall = {
    method: req.method,
    rest,
    url,
    body,
    via: via?.[1],
    respond: (status, answer) => send(res, status, answer),
  };
  return (
    messageRoutes(state, call) ??
    numberRoutes(state, call) ??
    applicationRoutes(state, call) ??
    send(res, 404, { api_id: apiId(), error: 'not found' })
  );
}

function createPlivoServer(state: PlivoState) {
  return createServer((req, res) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://fake');
      let status: number;
      const current = state.fault;
      if (current && 'hangMs' in current) {
        // A hung provider: the request is held, then handled (the client has usually given up by then).
        setTimeout(() => {
          if (!res.destroyed) handle(state, req, res, rawBody);
        }, current.hangMs).unref();
        return;
      }
      try {
        status = handle(state, req, res, rawBody);
      } catch {
        status = send(res, 400, { api_id: apiId(), error: 'invalid request' });
      }
      let body: Record<string, unknown> | null = null;
      try {
        body = rawBody ? JSON.parse(rawBody) : null;
      } catch {
        body = null;
      }
      state.fake.requests.push({
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body,
        headers: req.headers,
        at,
        status,
      });
    });
  });
}

export async function startFakePlivo(
  options: { authId?: string; authToken?: string; port?: number } = {},
): Promise<FakePlivo> {
  const authId = options.authId ?? 'MAFAKEAUTHID0000000';
  const authToken = options.authToken ?? 'fake-plivo-auth-token';
  const state: PlivoState = {
    authId,
    expectedAuth: `Basic ${Buffer.from(`${authId}:${authToken}`).toString('base64')}`,
    failures: 0,
    offered: 0,
    fault: null,
    fake: {
      authId,
      authToken,
      requests: [],
      messages: [],
      available: ['14155550100', '14155550101', '12125550100'],
      rented: new Map(),
      applications: new Map(),
      registration: new Map(),
      failNext(count) {
        state.failures = count;
      },
      outage(next) {
        state.fault = next;
      },
      onMessage: undefined,
    },
  };
  const server = createPlivoServer(state);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // The same object the server reads (not a copy), so a test can set onMessage after start.
  return Object.assign(state.fake, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
