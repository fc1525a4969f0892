import { expect, test } from '@playwright/test';
import { startFakePushService } from '../../apps/server/src/test/fake-push-service.ts';
import { closeTab, newOwner, onboardedOwner, openSlotTomorrow, signIn, snap } from '../support/app.ts';

/**
 * Issue 14, "On the owner's phone". Driven in Chromium: the manifest (fields, icons load), the service
 * worker registering, and the app shell served offline with the offline banner. Not driven in Chromium:
 * PushManager.subscribe (headless Chromium has no reachable push service, FCM); the journey posts a
 * subscription whose endpoint is a local push service with keys made here, and that service checks the
 * VAPID JWT and decrypts what the server sends.
 */
test.use({ viewport: { width: 390, height: 844 } });

test('the app installs: a valid manifest, a service worker, the shell offline with a banner', async ({
  page,
  request,
}) => {
  const manifestResponse = await request.get('/manifest.webmanifest');
  expect(manifestResponse.ok()).toBe(true);
  expect(manifestResponse.headers()['cache-control']).toContain('no-cache');
  const manifest = await manifestResponse.json();
  expect(manifest).toMatchObject({
    name: 'Waitlist & Text',
    short_name: 'Waitlist',
    display: 'standalone',
    start_url: '/openings',
    theme_color: '#4f46e5',
  });
  const sizes = manifest.icons.map(
    (icon: { sizes: string; purpose: string }) => `${icon.sizes} ${icon.purpose}`,
  );
  expect(sizes).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));
  expect((await request.get('/sw.js')).headers()['cache-control']).toContain('no-cache');

  const owner = await onboardedOwner(request, newOwner('pwa'));
  await signIn(page, owner.token);
  await page.goto('/account');
  await expect(page.getByRole('heading', { level: 1, name: 'My Account' })).toBeVisible();
  // The page links the manifest, and every icon loads as a PNG of its declared size.
  expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe('/manifest.webmanifest');
  for (const icon of manifest.icons as { src: string; sizes: string }[]) {
    const size = await page.evaluate(async (src) => {
      const image = new Image();
      image.src = src;
      await image.decode();
      return `${image.naturalWidth}x${image.naturalHeight}`;
    }, icon.src);
    expect(size).toBe(icon.sizes);
  }
  // The service worker registers and takes control.
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(scope).toMatch(/\/$/);
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  await expect(page.locator('#offline-banner')).toBeHidden();

  // Offline: a navigation gets the cached shell, with the banner; the API is not answered from a cache.
  await page.context().setOffline(true);
  await page.goto('/openings');
  await expect(page.locator('#offline-banner')).toBeVisible();
  await expect(page.locator('#offline-banner')).toHaveText(/You are offline/);
  const api = await page.evaluate(async () => {
    try {
      return (await fetch('/api/v1/auth/me')).status;
    } catch {
      return 'network error';
    }
  });
  expect(api).toBe('network error');
  await snap(page, 'pwa-offline-390');
  await page.context().setOffline(false);
  await page.goto('/account');
  await expect(page.locator('#offline-banner')).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Phone notifications' })).toBeVisible();
  await snap(page, 'pwa-account-push-390');
});

test('an owner turns push on; a customer replies YES on /dev/phone; the phone gets "… took your … slot"', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const push = await startFakePushService(3910);
  try {
    const owner = await onboardedOwner(request, newOwner('push'));
    const headers = { authorization: `Bearer ${owner.token}` };
    await signIn(page, owner.token);
    await page.goto('/account?tab=billing');
    await page.getByRole('button', { name: 'Request a number' }).click();
    await expect(
      page.getByTestId('phone-number-section').getByText('Verified', { exact: true }),
    ).toBeVisible();

    // Push on: the subscription the browser would post, its endpoint the local push service.
    const device = push.subscribe();
    const on = await request.post('/api/v1/push/subscriptions', {
      headers,
      data: { endpoint: device.endpoint, keys: device.keys, platform: 'android' },
    });
    expect(on.ok()).toBe(true);
    await page.goto('/account');
    await expect(page.getByLabel('Push notifications on this device')).toBeChecked();
    await snap(page, 'push-on-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    await snap(page, 'push-on-1280');
    await page.setViewportSize({ width: 390, height: 844 });

    const phone = '+12125550177';
    const added = await request.post('/api/v1/waitlist', {
      headers,
      data: { name: 'Priya Shah', phone, consentMethod: 'verbal' },
    });
    expect(added.status()).toBe(201);
    await openSlotTomorrow(request, headers, { service: 'Haircut', priceCents: 4500 });

    const simulator = await page.context().newPage();
    await simulator.goto('/dev/phone');
    await expect
      .poll(async () => {
        await simulator.reload();
        return simulator.getByRole('link', { name: /212.*555.*0177|\+12125550177/ }).count();
      })
      .toBeGreaterThan(0);
    await simulator
      .getByRole('link', { name: /212.*555.*0177|\+12125550177/ })
      .first()
      .click();
    await simulator.getByLabel('Reply').fill('YES');
    await simulator.getByRole('button', { name: 'Send' }).click();

    await expect.poll(() => push.received.length, { timeout: 15_000 }).toBe(1);
    expect(push.rejected).toEqual([]);
    expect(push.received[0]!.payload).toMatchObject({
      title: 'Priya took your 3:00 pm slot',
      url: '/openings',
    });
    await closeTab(simulator);
  } finally {
    await push.close();
  }
});
