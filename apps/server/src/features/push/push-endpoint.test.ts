import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import {
  createPushEndpoints,
  isPublicAddress,
  PushEndpointRefused,
  type ResolveHost,
} from './push-endpoint.ts';

describe('isPublicAddress', () => {
  it.each([
    ['142.250.74.10', true],
    ['17.253.144.10', true],
    ['2a00:1450:4001:80b::200a', true],
    ['127.0.0.1', false],
    ['127.255.255.254', false],
    ['10.0.0.1', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['172.32.0.1', true],
    ['192.168.0.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['100.127.255.255', false],
    ['0.0.0.0', false],
    ['0.1.2.3', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['192.0.2.1', false],
    ['240.0.0.1', false],
    ['::1', false],
    ['::', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:8.8.8.8', false],
    ['::127.0.0.1', false],
    ['64:ff9b::a00:1', false],
    ['2002:a00:1::', false],
    ['fc00::1', false],
    ['fd12:3456::1', false],
    ['fe80::1', false],
    ['ff02::1', false],
    ['2001:db8::1', false],
    ['not an address', false],
  ])('%s → %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('createPushEndpoints', () => {
  const resolver =
    (table: Record<string, string[]>): ResolveHost =>
    async (hostname) => {
      const addresses = table[hostname];
      if (!addresses) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
      return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
  const endpoints = createPushEndpoints({
    localServices: ['http://127.0.0.1:3910'],
    resolve: resolver({
      'fcm.example': ['142.250.74.10', '2a00:1450:4001:80b::200a'],
      'mixed.example': ['142.250.74.10', '10.0.0.1'],
      'internal.example': ['10.1.2.3'],
    }),
  });

  it('accepts a public https endpoint and the configured local service only', async () => {
    await expect(endpoints.check('https://fcm.example/fcm/send/abc')).resolves.toBeUndefined();
    await expect(endpoints.check('https://142.250.74.10/x')).resolves.toBeUndefined();
    await expect(endpoints.check('http://127.0.0.1:3910/push/abc')).resolves.toBeUndefined();
  });

  // Refused whatever DNS says: connection() refuses them too, before any lookup.
  it.each([
    'http://fcm.example/x',
    'https://user:pass@fcm.example/x',
    'http://127.0.0.1:3911/push/abc',
    'https://127.0.0.1:3910/push/abc',
    'https://2130706433/x',
    'https://[::ffff:a00:1]/x',
  ])('refuses %s when subscribing and when sending', async (endpoint) => {
    await expect(endpoints.check(endpoint)).rejects.toBeInstanceOf(PushEndpointRefused);
    expect(() => endpoints.connection(endpoint)).toThrow(PushEndpointRefused);
  });

  // Refused for what the name resolves to (at send time, by the connection's lookup: see below).
  it.each(['https://internal.example/x', 'https://mixed.example/x', 'https://unknown.example/x'])(
    'refuses %s when subscribing',
    async (endpoint) => {
      await expect(endpoints.check(endpoint)).rejects.toBeInstanceOf(PushEndpointRefused);
    },
  );

  it("gives the connection the checked addresses in the shape node's lookup expects", async () => {
    const { lookup } = endpoints.connection('https://fcm.example/x');
    const one = await new Promise((resolve, reject) =>
      lookup!('fcm.example', { family: 4 }, (error, address, family) =>
        error ? reject(error) : resolve({ address, family }),
      ),
    );
    expect(one).toEqual({ address: '142.250.74.10', family: 4 });
    const all = await new Promise((resolve, reject) =>
      lookup!('fcm.example', { all: true }, (error, addresses) =>
        error ? reject(error) : resolve(addresses),
      ),
    );
    expect(all).toEqual([
      { address: '142.250.74.10', family: 4 },
      { address: '2a00:1450:4001:80b::200a', family: 6 },
    ]);
    const refused = await new Promise((resolve) =>
      lookup!('mixed.example', { all: true }, (error) => resolve(error)),
    );
    expect(refused).toBeInstanceOf(PushEndpointRefused);
  });
});

describe('LOCAL_PUSH_SERVICES', () => {
  it('names loopback origins only, and none by default', () => {
    expect(loadConfig({}).push.localServices).toEqual([]);
    expect(
      loadConfig({ LOCAL_PUSH_SERVICES: 'http://127.0.0.1:3910, http://localhost:3912' }).push.localServices,
    ).toEqual(['http://127.0.0.1:3910', 'http://localhost:3912']);
    for (const bad of ['http://10.0.0.1:3910', 'https://push.example', 'http://127.0.0.1:3910/push', 'nope'])
      expect(() => loadConfig({ LOCAL_PUSH_SERVICES: bad }), bad).toThrow(/LOCAL_PUSH_SERVICES/);
  });
});
