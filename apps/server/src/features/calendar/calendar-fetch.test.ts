import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { calendarMessages as m } from '@waitlist/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { call, owner } from '../waitlist/waitlist.test-helpers.ts';
import { connectCalDav } from './caldav-client.ts';
import {
  boundCalendarFetch,
  CalendarAnswerTooLarge,
  CalendarRedirectRefused,
  createCalendarFetch,
  redirectRefusal,
} from './calendar-fetch.ts';
import { refusalOf } from './calendar-sync.ts';
import { readGoogle } from './google-calendar.ts';
import { graphSession } from './microsoft-auth.ts';

/**
 * Issue 38: every calendar answer is read through one bounded fetch (bytes after decompression, time) and
 * the owner's CalDAV credentials go only to the origin they typed. Real HTTP servers on 127.0.0.1.
 */

const MB = 1024 * 1024;
const owner38 = { username: 'owner', password: 'app-password-38' };

interface Served {
  url: string;
  /** Each request's method, path and Authorization header. */
  requests: { method: string; path: string; authorization: string | undefined }[];
  /** Bytes the handler managed to write before the client went away. */
  written: { bytes: number };
  close(): Promise<void>;
}
const servers: Served[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(
  handler: (request: IncomingMessage, response: ServerResponse, served: Served) => void,
): Promise<Served> {
  const served: Served = { url: '', requests: [], written: { bytes: 0 }, close: async () => {} };
  const server = createServer((request, response) => {
    served.requests.push({
      method: request.method ?? '',
      path: request.url ?? '',
      authorization: request.headers.authorization,
    });
    request.resume();
    handler(request, response, served);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  served.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  served.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  servers.push(served);
  return served;
}

/** Writes `chunk` `times` times, as fast as the client reads, stopping when it goes away. */
function stream(response: ServerResponse, served: Served, chunk: Buffer, times: number) {
  let sent = 0;
  let gone = false;
  response.on('close', () => {
    gone = true;
  });
  response.on('error', () => {});
  const more = () => {
    while (!gone && sent < times) {
      sent += 1;
      served.written.bytes += chunk.byteLength;
      if (!response.write(chunk)) return void response.once('drain', more);
    }
    if (!gone) response.end();
  };
  more();
}

/** 1 GB of zeros as 1,024 gzip members of 1 MB each (~1 MB on the wire): a valid gzip body, cheap to make. */
const GZIP_MEMBER = gzipSync(Buffer.alloc(MB));
const gzipBomb = (_request: IncomingMessage, response: ServerResponse, served: Served) => {
  response.writeHead(207, { 'content-type': 'application/xml; charset=utf-8', 'content-encoding': 'gzip' });
  stream(response, served, GZIP_MEMBER, 1024);
};
/** 50 MB of XML-looking filler, chunked (no Content-Length to refuse it by). */
const FILLER = Buffer.from(`<d:multistatus xmlns:d="DAV:">${' '.repeat(64 * 1024 - 30)}`);
const plainFlood = (_request: IncomingMessage, response: ServerResponse, served: Served) => {
  response.writeHead(207, { 'content-type': 'application/xml; charset=utf-8' });
  stream(response, served, FILLER, 800);
};

/** The most the process grew (RSS, heap) while `run` ran, sampled every few milliseconds. */
async function peakGrowth(run: () => Promise<void>) {
  const start = process.memoryUsage();
  const peak = { rss: 0, heap: 0 };
  const sample = () => {
    const now = process.memoryUsage();
    peak.rss = Math.max(peak.rss, now.rss - start.rss);
    peak.heap = Math.max(peak.heap, now.heapUsed - start.heapUsed);
  };
  const timer = setInterval(sample, 5);
  try {
    await run();
  } finally {
    clearInterval(timer);
    sample();
  }
  return { rssMb: peak.rss / MB, heapMb: peak.heap / MB };
}

/** A CalDAV server that names its principal and calendar home (either may be on another host). */
function davAnswer(path: string, principal: string, home: string) {
  return `<?xml version="1.0" encoding="utf-8"?>
<d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/">
  <d:response>
    <d:href>${path}</d:href>
    <d:propstat>
      <d:prop>
        <d:current-user-principal><d:href>${principal}</d:href></d:current-user-principal>
        <c:calendar-home-set><d:href>${home}</d:href></c:calendar-home-set>
        <cs:getctag>ctag-1</cs:getctag>
      </d:prop>
      <d:status>HTTP/1.1 200 OK</d:status>
    </d:propstat>
  </d:response>
</d:multistatus>`;
}
const davServer = (options: { principal?: string; home?: string; report?: Parameters<typeof serve>[0] }) =>
  serve((request, response, served) => {
    if (request.method === 'REPORT' && options.report) return options.report(request, response, served);
    response
      .writeHead(207, { 'content-type': 'application/xml; charset=utf-8' })
      .end(davAnswer(request.url ?? '/', options.principal ?? '/principal/', options.home ?? '/calendars/'));
  });

const calendarFetch = (limits: { maxBytes?: number } = {}) =>
  createCalendarFetch({ allowPrivate: true, ...limits });
const connect = (serverUrl: string, fetch = calendarFetch()) =>
  connectCalDav({ serverUrl, ...owner38, fetch });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => error,
  );

describe('a calendar answer is read to at most 5 MB, decompressed', () => {
  it('refuses a CalDAV PROPFIND answered with a gzip bomb (1 MB → 1 GB), memory bounded, with the words', async () => {
    const bomb = await serve(gzipBomb);
    let error: unknown;
    const growth = await peakGrowth(async () => {
      error = await failure(connect(bomb.url));
    });
    console.info(
      `gzip bomb on PROPFIND: peak growth rss ${growth.rssMb.toFixed(1)} MB, heap ${growth.heapMb.toFixed(1)} MB`,
    );
    expect(error).toBeInstanceOf(CalendarAnswerTooLarge);
    expect(refusalOf(error)).toEqual({ message: m.answerTooLarge, field: 'url' });
    expect(growth.rssMb).toBeLessThan(64);
    expect(growth.heapMb).toBeLessThan(64);
  });

  it('refuses a CalDAV REPORT (the calendar’s events) answered with a gzip bomb after a good sign-in', async () => {
    const dav = await davServer({
      report: gzipBomb,
    });
    const client = await connect(dav.url);
    let error: unknown;
    const growth = await peakGrowth(async () => {
      error = await failure(client.fullSync(`${dav.url}/calendars/work/`));
    });
    console.info(
      `gzip bomb on REPORT: peak growth rss ${growth.rssMb.toFixed(1)} MB, heap ${growth.heapMb.toFixed(1)} MB`,
    );
    expect(error).toBeInstanceOf(CalendarAnswerTooLarge);
    expect(growth.rssMb).toBeLessThan(64);
    expect(dav.requests.map((request) => request.method)).toContain('REPORT');
  });

  it('refuses a plain 50 MB answer without reading it whole (the limit injected smaller)', async () => {
    const flood = await serve(plainFlood);
    let error: unknown;
    const growth = await peakGrowth(async () => {
      error = await failure(connect(flood.url, calendarFetch({ maxBytes: MB })));
    });
    expect(error).toBeInstanceOf(CalendarAnswerTooLarge);
    expect(growth.rssMb).toBeLessThan(64);
    // The connection was closed at the limit: the server got nowhere near sending its 50 MB.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(flood.written.bytes).toBeLessThan(25 * MB);
  });

  it('refuses an answer that declares more than the limit before reading any of it', async () => {
    const huge = await serve((_request, response) => {
      response.writeHead(207, { 'content-type': 'application/xml', 'content-length': String(400 * MB) });
      response.write('<d:multistatus/>');
    });
    const fetch = calendarFetch();
    await expect(fetch(`${huge.url}/`, { method: 'PROPFIND' })).rejects.toBeInstanceOf(
      CalendarAnswerTooLarge,
    );
  });

  it('still reads an answer under the limit whole, a library’s text() included', async () => {
    const small = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      response.end(gzipSync(Buffer.from('x'.repeat(100_000))));
    });
    const response = await calendarFetch()(`${small.url}/feed`);
    expect(response.url).toBe(`${small.url}/feed`);
    expect(await response.text()).toBe('x'.repeat(100_000));
  });
});

describe('CalDAV credentials go only to the origin the owner typed', () => {
  for (const status of [301, 302, 307]) {
    it(`refuses a ${status} to another origin: the other server never sees the password`, async () => {
      const other = await davServer({});
      const typed = await serve((_request, response) => {
        response.writeHead(status, { location: `${other.url}/dav/` }).end();
      });
      const error = await failure(connect(typed.url));
      expect(error).toBeInstanceOf(CalendarRedirectRefused);
      expect(refusalOf(error)).toEqual({ message: m.redirectRefused, field: 'url' });
      expect(typed.requests.length).toBeGreaterThan(0);
      expect(other.requests).toEqual([]);
    });
  }

  it('follows a redirect on the same origin, credentials kept', async () => {
    const dav = await serve((request, response) => {
      if (!request.url?.startsWith('/dav/'))
        return void response.writeHead(301, { location: `/dav${request.url}` }).end();
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
    const response = await calendarFetch()(`${dav.url}/x`, { headers: { authorization: 'Basic abc' } });
    expect(await response.text()).toBe('ok');
    expect(dav.requests.map((request) => [request.path, request.authorization])).toEqual([
      ['/x', 'Basic abc'],
      ['/dav/x', 'Basic abc'],
    ]);
  });

  it('refuses a principal on another host before sending it anything', async () => {
    const other = await davServer({});
    const typed = await davServer({ principal: `${other.url}/principal/` });
    const error = await failure(connect(typed.url));
    expect(error).toBeInstanceOf(CalendarRedirectRefused);
    expect(refusalOf(error)).toEqual({ message: m.redirectRefused, field: 'url' });
    expect(other.requests).toEqual([]);
  });

  it('refuses a calendar home on another host before sending it anything', async () => {
    const other = await davServer({});
    const typed = await davServer({ home: `${other.url}/calendars/` });
    const error = await failure(connect(typed.url).then((client) => client.listCalendars()));
    expect(error).toBeInstanceOf(CalendarRedirectRefused);
    expect(other.requests).toEqual([]);
  });

  it('refuses https down to http, with or without credentials (the rule, and the fetch)', async () => {
    const from = new URL('https://caldav.example.com/dav/');
    expect(redirectRefusal(from, new URL('http://caldav.example.com/dav/'), true)?.reason).toBe('insecure');
    expect(redirectRefusal(from, new URL('http://caldav.example.com/dav/'), false)?.reason).toBe('insecure');
    expect(redirectRefusal(from, new URL('https://elsewhere.example/'), true)?.reason).toBe('other-server');
    expect(redirectRefusal(from, new URL('https://caldav.example.com:8443/'), true)?.reason).toBe(
      'other-server',
    );
    expect(redirectRefusal(from, new URL('https://caldav.example.com/other/'), true)).toBeUndefined();
    // A feed without credentials may move to another server (over https); http upgraded to https stays.
    expect(redirectRefusal(from, new URL('https://cdn.example.net/feed.ics'), false)).toBeUndefined();
    const plain = new URL('http://caldav.example.com/');
    expect(redirectRefusal(plain, new URL('https://caldav.example.com/'), true)).toBeUndefined();

    // Through a fetch: an https server (stood in for) sends the request down to a real http one.
    const downstairs = await serve((_request, response) => response.end('ok'));
    const secure: typeof globalThis.fetch = async () =>
      new Response(null, { status: 301, headers: { location: `${downstairs.url}/dav/` } });
    const error = await failure(
      boundCalendarFetch(secure)('https://caldav.example.com/dav/', {
        headers: { authorization: 'Basic abc' },
      }),
    );
    expect(error).toBeInstanceOf(CalendarRedirectRefused);
    expect(refusalOf(error)).toEqual({ message: m.insecureRedirect, field: 'url' });
    expect(downstairs.requests).toEqual([]);
  });
});

describe('Google and Microsoft answers are bounded too', () => {
  const tokens = {
    accessToken: 'access-1',
    refreshToken: 'refresh-1',
    expiresAt: new Date(Date.now() + 3_600_000),
  };
  const window = { from: new Date(), to: new Date(Date.now() + 7 * 86_400_000) };

  it('refuses a Google answer past 5 MB (its own fetch, unbounded before), with the words', async () => {
    const google = await serve((_request, response, served) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      stream(response, served, FILLER, 800);
    });
    const app = {
      clientId: 'id',
      clientSecret: 'secret',
      redirectUri: 'https://app.example/callback',
      endpoints: { api: google.url, token: `${google.url}/token`, revoke: `${google.url}/revoke` },
    };
    let error: unknown;
    const growth = await peakGrowth(async () => {
      error = await failure(readGoogle(app, tokens, 'primary', { syncToken: null }, window, []));
    });
    expect(error).toBeInstanceOf(CalendarAnswerTooLarge);
    expect(refusalOf(error)).toEqual({ message: m.answerTooLarge, field: 'url' });
    expect(growth.rssMb).toBeLessThan(64);
  });

  it('refuses a Graph answer past 5 MB even through a plain fetch', async () => {
    const graph = await serve(gzipBomb);
    const app = {
      clientId: 'id',
      clientSecret: 'secret',
      redirectUri: 'https://app.example/callback',
      graph: graph.url,
      authority: graph.url,
      fetch: globalThis.fetch,
    };
    const error = await failure(graphSession(app, tokens).call('GET', '/me/calendars'));
    expect(error).toBeInstanceOf(CalendarAnswerTooLarge);
  });
});

describe('the owner reads the words (through the app, on this database)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { CALENDAR_ALLOW_PRIVATE_ADDRESSES: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a CalDAV address that redirects to another server: refused, the other server sees no password', async () => {
    const other = await davServer({});
    const typed = await serve((_request, response) => {
      response.writeHead(301, { location: `${other.url}/dav/` }).end();
    });
    const o = await owner(t);
    const response = await call(t, o.token, 'POST', '/calendar/connections', {
      kind: 'caldav',
      url: typed.url,
      ...owner38,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ errors: { url: m.redirectRefused } });
    expect(other.requests).toEqual([]);
  });

  it('an ICS feed that is a gzip bomb: refused as too large, not as unreachable', async () => {
    const feed = await serve((_request, response, served) => {
      response.writeHead(200, { 'content-type': 'text/calendar', 'content-encoding': 'gzip' });
      stream(response, served, GZIP_MEMBER, 1024);
    });
    const o = await owner(t);
    const response = await call(t, o.token, 'POST', '/calendar/connections', {
      kind: 'ics',
      url: `${feed.url}/basic.ics`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ errors: { url: m.answerTooLarge } });
  });
});
