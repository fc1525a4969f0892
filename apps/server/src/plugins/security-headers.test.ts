import Fastify from 'fastify';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { computeSecurityHeaders, registerSecurityHeaders } from './security-headers.ts';

const options = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", 'https://js.example'],
      objectSrc: ["'none'"],
      upgradeInsecureRequests: null,
    },
  },
};

/** What helmet's own middleware sets on a real response, for comparison. */
function helmetOnAResponse(): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as never, response as never, () => {});
  return headers;
}

describe('security headers computed once (issue 16)', () => {
  it('are exactly the headers helmet sets, CSP included', () => {
    const headers = computeSecurityHeaders(options);
    expect(headers).toEqual(helmetOnAResponse());
    expect(headers['content-security-policy']).toContain("default-src 'self'");
    expect(headers['content-security-policy']).toContain("script-src 'self' https://js.example");
    expect(headers['content-security-policy']).toContain("object-src 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['strict-transport-security']).toMatch(/max-age=/);
  });

  it('refuses options helmet refuses, at start rather than on a request', () => {
    expect(() =>
      computeSecurityHeaders({
        contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], scriptSrc: ['self'] } },
      }),
    ).toThrow();
  });

  it('are on every answer, errors and unknown routes included', async () => {
    const app = Fastify({ logger: false });
    registerSecurityHeaders(app, options);
    app.get('/ok', async () => ({ ok: true }));
    app.get('/boom', async () => {
      throw new Error('boom');
    });
    const expected = computeSecurityHeaders(options);
    for (const url of ['/ok', '/boom', '/nowhere']) {
      const response = await app.inject({ url });
      for (const [name, value] of Object.entries(expected))
        expect(response.headers[name], `${url} ${name}`).toBe(value);
    }
    await app.close();
  });
});
