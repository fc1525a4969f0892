import { type APIRequestContext, expect, test } from '@playwright/test';
import { newOwner, onboardedOwner, openSlotTomorrow, snap, verifiedTextNumber } from '../support/app.ts';

/**
 * Issue 28's journey at phone size: Lucía joins on the public page in Spanish (the English | Español switch),
 * confirms with "SÍ" and is welcomed in Spanish; the owner opens a slot; she gets the Spanish alert, replies
 * "Sí, lo quiero" and gets the slot in Spanish, while Ben, an English customer on the same opening, is told in
 * English that it is filled.
 */
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'en-US' });

const LUCIA = '+12125550181';
const BEN = '+12125550182';

async function textsTo(request: APIRequestContext, number: string) {
  const response = await request.get(`/api/v1/dev/phone/messages?number=${encodeURIComponent(number)}`);
  const json = (await response.json()) as {
    messages?: { direction: string; body: string }[];
    data?: { direction: string; body: string }[];
  };
  return (json.messages ?? json.data ?? []).filter((message) => message.direction === 'out');
}
const lastTextTo = async (request: APIRequestContext, number: string) =>
  (await textsTo(request, number)).at(-1)?.body ?? '';

async function replyFromPhone(request: APIRequestContext, business: string, phone: string, text: string) {
  const sent = await request.post('/api/v1/dev/phone/reply', { data: { from: phone, to: business, text } });
  expect(sent.ok(), await sent.text()).toBe(true);
}

test('a customer joins in Spanish and gets the slot in Spanish; an English one is told in English', async ({
  page,
  request,
}) => {
  const owner = await onboardedOwner(request, newOwner('spanish'));
  const headers = { authorization: `Bearer ${owner.token}` };
  const businessNumber = await verifiedTextNumber(request, headers);
  const ben = await request.post('/api/v1/waitlist', {
    headers,
    data: { name: 'Ben Cole', phone: BEN, consentMethod: 'verbal' },
  });
  expect(ben.status()).toBe(201);
  const link = (await (await request.get('/api/v1/join-link', { headers })).json()).data as { slug: string };

  // The page opens in the browser's English; the switch turns it Spanish.
  await page.goto(`/join/${link.slug}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Bella Salon' })).toBeVisible();
  await expect(page.getByLabel('Your name')).toBeVisible();
  await page.getByRole('button', { name: 'Español' }).click();
  await expect(page.getByRole('button', { name: 'Español' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByLabel('Tu nombre')).toBeVisible();
  await snap(page, 'join-spanish-390');
  await page.setViewportSize({ width: 1280, height: 900 });
  await snap(page, 'join-spanish-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByLabel('Tu nombre').fill('Lucía Pérez');
  await page.getByLabel('Número de celular').fill('(212) 555-0181');
  await page.getByLabel(/Acepto recibir mensajes de texto de Bella Salon/).check();
  await page.getByRole('button', { name: 'Unirme a la lista de espera' }).click();
  await expect(page.getByRole('status')).toContainText('Revisa tus mensajes: responde SÍ');
  await snap(page, 'join-spanish-done-390');

  await expect.poll(() => lastTextTo(request, LUCIA)).toMatch(/Responde SI para unirte a la lista de espera/);
  await replyFromPhone(request, businessNumber, LUCIA, 'SÍ');
  await expect.poll(() => lastTextTo(request, LUCIA)).toMatch(/¡Listo! Ya te agregamos a la lista de espera/);

  await openSlotTomorrow(request, headers, { service: 'Haircut', priceCents: 6500 });
  await expect
    .poll(() => lastTextTo(request, LUCIA))
    .toMatch(
      /^Hola Lucía, cita libre en Bella Salon: .+ a las 3:00 p\.m\. \(Haircut\)\. Es para quien responda SI primero/,
    );
  await expect
    .poll(() => lastTextTo(request, BEN))
    .toMatch(/^Hi Ben, a spot just opened at Bella Salon: .+ at 3:00 PM/);

  await replyFromPhone(request, businessNumber, LUCIA, 'Sí, lo quiero');
  await expect.poll(() => lastTextTo(request, LUCIA)).toMatch(/^¡Listo, Lucía! La cita es tuya: Bella Salon/);
  await expect
    .poll(() => lastTextTo(request, BEN))
    .toMatch(/^Sorry Ben, the .+ spot at Bella Salon has already been filled/);
});
