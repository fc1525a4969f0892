import {
  addInterval,
  error,
  type FakeAccount,
  type FakePhase,
  type FakeSchedule,
  type Interval,
  id,
  type Json,
  missing,
  ok,
} from './account.ts';
import { scheduleObject } from './objects.ts';
import type { FakeRoutes } from './request.ts';

/** Subscription schedules of the fake Stripe API: made from a subscription, phases set, released. */

function createSchedule(account: FakeAccount, body: Json) {
  const sub = account.subscriptions.get(String(body.from_subscription));
  if (!sub) return missing('subscription', String(body.from_subscription));
  if (sub.schedule)
    return error(
      400,
      'invalid_request_error',
      `You cannot migrate a subscription that is already attached to a schedule: \`${sub.schedule}\`.`,
    );
  const schedule: FakeSchedule = {
    id: id('sub_sched'),
    subscription: sub.id,
    customer: sub.customer,
    status: 'active',
    end_behavior: 'release',
    created: account.now,
    phases: [
      {
        start_date: sub.periodStart,
        end_date: sub.periodEnd,
        items: [{ price: sub.price, quantity: 1 }],
      },
    ],
  };
  account.schedules.set(schedule.id, schedule);
  sub.schedule = schedule.id;
  return ok(scheduleObject(account, schedule));
}

function releaseSchedule(account: FakeAccount, schedule: FakeSchedule) {
  if (schedule.status !== 'active' && schedule.status !== 'not_started')
    return error(
      400,
      'invalid_request_error',
      `You cannot release a subscription schedule that is currently \`${schedule.status}\`.`,
    );
  schedule.status = 'released';
  const sub = account.subscriptions.get(schedule.subscription);
  if (sub) sub.schedule = null;
  return ok(scheduleObject(account, schedule));
}

type PhaseParams = {
  start_date?: string;
  end_date?: string;
  duration?: { interval: Interval };
  items: { price: string; quantity?: string }[];
};

function updateSchedule(account: FakeAccount, schedule: FakeSchedule, body: Json) {
  const phases = body.phases as PhaseParams[] | undefined;
  if (phases) {
    const currentStart = schedule.phases[0]!.start_date;
    if (Number(phases[0]?.start_date) !== currentStart)
      return error(400, 'invalid_request_error', 'You can not modify the start date of the current phase.');
    let start = currentStart;
    const next: FakePhase[] = [];
    for (const phase of phases) {
      const price = account.prices.get(phase.items[0]?.price ?? '');
      if (!price) return missing('price', String(phase.items[0]?.price));
      const end = phase.end_date
        ? Number(phase.end_date)
        : addInterval(start, phase.duration?.interval ?? price.interval);
      next.push({
        start_date: start,
        end_date: end,
        items: [{ price: price.id, quantity: Number(phase.items[0]?.quantity ?? 1) }],
      });
      start = end;
    }
    schedule.phases = next;
  }
  if (typeof body.end_behavior === 'string') schedule.end_behavior = body.end_behavior;
  return ok(scheduleObject(account, schedule));
}

export const scheduleRoutes: FakeRoutes = (account, { method, path, body }) => {
  if (method === 'POST' && path === '/v1/subscription_schedules') return createSchedule(account, body);
  const match = path.match(/^\/v1\/subscription_schedules\/([^/]+)(?:\/(release))?$/);
  if (!match) return undefined;
  const schedule = account.schedules.get(match[1]!);
  if (!schedule) return missing('subscription_schedule', match[1]!);
  if (method === 'GET') return ok(scheduleObject(account, schedule));
  if (match[2] === 'release') return releaseSchedule(account, schedule);
  return updateSchedule(account, schedule, body);
};
