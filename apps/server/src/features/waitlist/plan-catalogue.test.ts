import { DEFAULT_PLAN_CATALOGUE, setPlanCatalogue } from '@waitlist/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { priceOf } from '../../providers/billing/local-billing-math.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { addCustomer, call, customerPhone, owner } from './waitlist.test-helpers.ts';

/**
 * Issue 39: the plan catalogue is the operator's configuration. PLANS_JSON changes a plan's name, waitlist size
 * and alerts a day without a code change; the web reads it from GET /config and every refusal names it.
 */
const PLANS_JSON = JSON.stringify({
  free_trial: { name: 'Tryout', waitlistSize: 2, alertsPerDay: 2, textsIncluded: 500 },
  growth: { alertsPerDay: 5, monthlyPrice: 9900 },
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { PLANS_JSON } });
});
afterAll(async () => {
  await t.close();
  setPlanCatalogue(DEFAULT_PLAN_CATALOGUE);
});

const open = (token: string, hours: number) =>
  call(t, token, 'POST', '/openings', {
    startsAt: new Date(t.clock.now().getTime() + hours * 3_600_000).toISOString(),
    durationMinutes: 30,
    service: 'Massage',
    mode: 'all',
  });

describe('the plan catalogue from PLANS_JSON (issue 39)', () => {
  it('is served to the web on GET /config, the fields left out keeping the SPEC values', async () => {
    const answer = (await t.app.inject({ url: '/api/v1/config' })).json();
    expect(answer.plans.free_trial).toEqual({
      name: 'Tryout',
      waitlistSize: 2,
      alertsPerDay: 2,
      textsIncluded: 500,
      monthlyPrice: null,
    });
    expect(answer.plans.growth).toEqual({
      ...DEFAULT_PLAN_CATALOGUE.growth,
      alertsPerDay: 5,
      monthlyPrice: 9900,
    });
    expect(answer.plans.starter).toEqual(DEFAULT_PLAN_CATALOGUE.starter);
    expect(answer.smsSegmentPrice).toEqual({ amount: 0.0079, currency: 'USD' });
  });

  it('caps the waitlist at the configured size, and the refusal names the configured plan and number', async () => {
    const o = await owner(t);
    await addCustomer(t, o.token, 1);
    await addCustomer(t, o.token, 2);
    const refused = await call(t, o.token, 'POST', '/waitlist', {
      name: 'Third',
      phone: customerPhone(3),
      consentMethod: 'verbal',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/^Your Tryout allows 2 customers on the waitlist\./);
    expect((await call(t, o.token, 'GET', '/waitlist')).json()).toMatchObject({ count: 2, cap: 2 });
  });

  it('allows the configured alerts a day: a second slot the SPEC default would refuse, then refuses the third', async () => {
    const o = await owner(t);
    await addCustomer(t, o.token, 11);
    expect((await open(o.token, 20)).statusCode).toBe(201);
    const second = await open(o.token, 21);
    expect(second.statusCode, second.body).toBe(201);
    const third = await open(o.token, 22);
    expect(third.statusCode).toBe(403);
    expect(third.json().message).toMatch(/^Your Tryout allows 2 cancellation alerts per day\./);
  });
});

describe('the prices in PLANS_JSON', () => {
  it('are what the billing provider quotes and charges, yearly twelve months less the 20% saving', async () => {
    const o = await owner(t);
    const pricing = (await call(t, o.token, 'GET', '/stripe/pricing')).json().pricing;
    expect(pricing.GROWTH).toEqual({
      monthly: { amount: 9900, currency: 'usd' },
      yearly: { amount: Math.round(9900 * 12 * 0.8), currency: 'usd' },
    });
    expect(pricing.STARTER.monthly.amount).toBe(DEFAULT_PLAN_CATALOGUE.starter.monthlyPrice);
    expect(priceOf('growth', 'monthly')).toBe(9900);
  });
});

describe('a bad PLANS_JSON stops start-up with one line naming it', () => {
  it.each([
    ['not json', /^Invalid configuration: PLANS_JSON is not valid JSON$/],
    ['{"starter":{"alertsPerDay":0}}', /^Invalid configuration: PLANS_JSON starter\.alertsPerDay /],
    ['{"starter":{"name":""}}', /^Invalid configuration: PLANS_JSON starter\.name /],
    ['{"growth":{"monthlyPrice":null}}', /^Invalid configuration: PLANS_JSON growth\.monthlyPrice /],
    ['{"starter":{"monthlyPrice":19.5}}', /^Invalid configuration: PLANS_JSON starter\.monthlyPrice /],
    ['{"gold":{"name":"Gold"}}', /^Invalid configuration: PLANS_JSON .*gold/],
  ])('%s', (value, message) => {
    expect(() => loadConfig({ NODE_ENV: 'test', PLANS_JSON: value })).toThrow(message);
  });
});
