import type { FastifyInstance } from 'fastify';

type Inject = FastifyInstance['inject'];

/**
 * A `fetch` that sends each request to this same Fastify app with `inject` (Host: localhost, a loopback
 * address), so the server's calendar sync can read its own local calendar through the CalDAV client
 * without a network port. Give it to the client as its `fetch` with a serverUrl on http://localhost/.
 */
export function localCalendarFetch(app: { inject: Inject }): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    headers.host = 'localhost';
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null;
    const response = await app.inject({
      method: request.method as 'GET',
      url: `${url.pathname}${url.search}`,
      headers,
      remoteAddress: '127.0.0.1',
      ...(hasBody ? { payload: Buffer.from(await request.arrayBuffer()) } : {}),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, String(one));
    }
    const status = response.statusCode;
    const bodyless = request.method === 'HEAD' || [101, 204, 205, 304].includes(status);
    const answer = new Response(bodyless ? null : new Uint8Array(response.rawPayload), {
      status,
      statusText: response.statusMessage,
      headers: responseHeaders,
    });
    // What a real fetch reports: tsdav names a failed answer by its url.
    Object.defineProperty(answer, 'url', { value: url.href });
    return answer;
  };
}
