import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { plivoV3Payload, plivoV3Signature, verifyPlivoV3Signature } from './plivo-signature.ts';

describe('Plivo signature V3', () => {
  it('signs the URL, the sorted query, the sorted POST fields and the nonce as Plivo does', () => {
    expect(plivoV3Payload('POST', 'https://app.example/hook', 'n1')).toBe('https://app.example/hook.n1');
    expect(
      plivoV3Payload('POST', 'https://app.example/hook', 'n1', { To: '1', From: '2', Text: 'hi there' }),
    ).toBe('https://app.example/hook?From2Texthi thereTo1.n1');
    expect(plivoV3Payload('POST', 'https://app.example/hook?b=2&a=1', 'n1', { To: '1', From: '2' })).toBe(
      'https://app.example/hook?a=1&b=2.From2To1.n1',
    );
    expect(plivoV3Payload('POST', 'https://app.example/hook?b=2&a=1', 'n1')).toBe(
      'https://app.example/hook?a=1&b=2.n1',
    );
    expect(plivoV3Payload('GET', 'https://app.example/hook?b=2', 'n1', { a: '1' })).toBe(
      'https://app.example/hook?a=1&b=2.n1',
    );
    expect(plivoV3Payload('POST', 'https://app.example:8443/hook', 'n1', { K: ['b', 'a'] })).toBe(
      'https://app.example:8443/hook?KaKb.n1',
    );
  });

  it('is the base64 HMAC-SHA256 of that string with the auth token', () => {
    const expected = createHmac('sha256', 'token')
      .update('https://app.example/hook?From2To1.n1')
      .digest('base64');
    expect(plivoV3Signature('token', 'POST', 'https://app.example/hook', 'n1', { From: '2', To: '1' })).toBe(
      expected,
    );
  });

  it('accepts a matching signature among several, and refuses a wrong token, a changed field or no nonce', () => {
    const params = { From: '14155550100', To: '14155550199', Text: 'YES', MessageUUID: 'abc' };
    const url = 'https://app.example/api/v1/webhooks/plivo/message';
    const signature = plivoV3Signature('token', 'POST', url, 'nonce', params);
    const check = (overrides: Partial<Parameters<typeof verifyPlivoV3Signature>[0]>) =>
      verifyPlivoV3Signature({
        authToken: 'token',
        method: 'POST',
        url,
        nonce: 'nonce',
        signature,
        params,
        ...overrides,
      });
    expect(check({})).toBe(true);
    expect(check({ signature: `old-signature,${signature}` })).toBe(true);
    expect(check({ authToken: 'other' })).toBe(false);
    expect(check({ params: { ...params, Text: 'NO' } })).toBe(false);
    expect(check({ url: `${url}?x=1` })).toBe(false);
    expect(check({ nonce: undefined })).toBe(false);
    expect(check({ signature: undefined })).toBe(false);
  });

  it('pins the nonce: one with a dot, which could be cut from a field further left, never verifies', () => {
    const url = 'https://app.example/api/v1/webhooks/plivo/message';
    const params = { From: '14155550100', Text: 'ok. thanks', To: '14155550199' };
    const signature = plivoV3Signature('token', 'POST', url, '12345', params);
    // "…Textok. thanksTo14155550199.12345" read as a shorter request whose nonce starts after the first dot:
    const shifted = { params: { From: '14155550100', Text: 'ok' }, nonce: ' thanksTo14155550199.12345' };
    expect(plivoV3Payload('POST', url, shifted.nonce, shifted.params)).toBe(
      plivoV3Payload('POST', url, '12345', params),
    );
    const check = (input: { params: Record<string, string>; nonce: string }) =>
      verifyPlivoV3Signature({ authToken: 'token', method: 'POST', url, signature, ...input });
    expect(check({ params, nonce: '12345' })).toBe(true);
    expect(check(shifted)).toBe(false);
  });
});
