import { socialMessages, socialProviders } from '@waitlist/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { externalAuth } from './social.test-helpers.ts';

/** A server with no provider configured, and one with all three (the ids only: nothing is called here). */
let bare: TestApp;
let configured: TestApp;
beforeAll(async () => {
  bare = await createTestApp();
  configured = await createTestApp({
    env: {
      GOOGLE_CLIENT_ID: 'google-client.apps.googleusercontent.com',
      FACEBOOK_APP_ID: '1234567890',
      FACEBOOK_APP_SECRET: 'facebook-secret',
      APPLE_CLIENT_ID: 'com.example.waitlist',
    },
  });
});
afterAll(async () => {
  await bare.close();
  await configured.close();
});

const cspOf = async (t: TestApp) => {
  const response = await t.app.inject({ url: '/api/v1/health' });
  return String(response.headers['content-security-policy']);
};
const directive = (csp: string, name: string) =>
  csp
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name} `)) ?? '';

describe('a provider that is not configured', () => {
  it.each(socialProviders)('%s answers 400 "not configured", whatever the body carries', async (provider) => {
    const response = await externalAuth(bare, {
      provider,
      idToken: 'a.b.c',
      accessToken: 'token',
      nonce: 'n',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: socialMessages.notConfigured(provider) });
  });

  it('GET /config gives null ids', async () => {
    const response = await bare.app.inject({ url: '/api/v1/config' });
    expect(response.json()).toMatchObject({ googleClientId: null, facebookAppId: null, appleClientId: null });
  });
});

describe('Content Security Policy', () => {
  it('allows no provider SDK when none is configured', async () => {
    const csp = await cspOf(bare);
    expect(directive(csp, 'script-src')).toBe("script-src 'self'");
    expect(csp).not.toContain('accounts.google.com');
    expect(csp).not.toContain('facebook');
    expect(csp).not.toContain('apple');
  });

  it('allows each configured provider’s SDK: script, frames, calls and styles', async () => {
    const csp = await cspOf(configured);
    expect(directive(csp, 'script-src')).toBe(
      "script-src 'self' https://accounts.google.com/gsi/client https://connect.facebook.net https://appleid.cdn-apple.com",
    );
    expect(directive(csp, 'frame-src')).toContain('https://accounts.google.com/gsi/');
    expect(directive(csp, 'frame-src')).toContain('https://*.facebook.com');
    expect(directive(csp, 'frame-src')).toContain('https://appleid.apple.com');
    expect(directive(csp, 'connect-src')).toContain('https://accounts.google.com/gsi/');
    expect(directive(csp, 'connect-src')).toContain('https://www.googleapis.com');
    expect(directive(csp, 'style-src')).toContain('https://accounts.google.com/gsi/style');
    // Still nothing from anywhere else.
    expect(directive(csp, 'default-src')).toBe("default-src 'self'");
    expect(directive(csp, 'object-src')).toBe("object-src 'none'");
  });

  it('adds only the configured provider: Google alone brings no Facebook or Apple source', async () => {
    const googleOnly = await createTestApp({
      env: { GOOGLE_CLIENT_ID: 'only-google.apps.googleusercontent.com' },
    });
    try {
      const csp = await cspOf(googleOnly);
      expect(csp).toContain('https://accounts.google.com/gsi/client');
      expect(csp).not.toContain('facebook');
      expect(csp).not.toContain('apple');
    } finally {
      await googleOnly.close();
    }
  });
});

describe('GET /config with the providers configured', () => {
  it('gives the public ids (never the Facebook app secret)', async () => {
    const response = await configured.app.inject({ url: '/api/v1/config' });
    expect(response.json()).toMatchObject({
      googleClientId: 'google-client.apps.googleusercontent.com',
      facebookAppId: '1234567890',
      appleClientId: 'com.example.waitlist',
    });
    expect(response.body).not.toContain('facebook-secret');
  });
});

describe('OpenAPI', () => {
  it('documents POST /auth/external with the contract’s body and answers', async () => {
    const response = await bare.app.inject({ url: '/api/docs/openapi.json' });
    expect(response.statusCode).toBe(200);
    const operation = response.json().paths['/api/v1/auth/external'].post;
    const body = operation.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties)).toEqual(
      expect.arrayContaining([
        'firstName',
        'email',
        'provider',
        'providerId',
        'idToken',
        'accessToken',
        'nonce',
      ]),
    );
    expect(Object.keys(operation.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '409', '429', '503']),
    );
  });
});
