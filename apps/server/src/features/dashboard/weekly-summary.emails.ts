import { type EarningsPeriod, weeklySummaryMessages } from '@waitlist/contract';
import type { EmailMessage } from '../../providers/email/index.ts';
import { emailHtml } from '../../providers/email/layout.ts';

const money = (cents: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
const count = (value: number) => new Intl.NumberFormat('en-US').format(value);
const percent = (value: number) =>
  new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 0 }).format(value);
/** "Nov 16" */
const day = (date: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );
const plural = (value: number, one: string, many: string) => `${count(value)} ${value === 1 ? one : many}`;

/** Monday's email: last week's figures (issue 14), with the way to turn it off. */
export function weeklySummaryEmail(
  owner: { email: string; firstName: string; businessName: string },
  week: EarningsPeriod,
  links: { dashboardUrl: string; settingsUrl: string },
): EmailMessage {
  const subject = weeklySummaryMessages.subject(money(week.revenueRecoveredCents));
  const figures = [
    `Week of ${day(week.from)} – ${day(week.to)} at ${owner.businessName}:`,
    `Openings filled: ${count(week.openingsFilled)} of ${plural(week.openingsOpened, 'opened', 'opened')}${
      week.fillRate === null ? '' : ` (${percent(week.fillRate)} fill rate)`
    }`,
    week.medianMinutesToClaim === null
      ? 'Median time to claim: no claims this week'
      : `Median time to claim: ${plural(Math.round(week.medianMinutesToClaim), 'minute', 'minutes')}`,
    `Texts sent: ${count(week.textsSent)} (${count(week.textsDelivered)} delivered)`,
    `Opt-outs: ${count(week.optOuts)}`,
    `Customers waiting now: ${count(week.waitlistSize)}`,
  ];
  const lines = [`Hi ${owner.firstName},`, ...figures];
  const offNote = `You get this email every Monday. Turn it off on the Information tab of your account: ${links.settingsUrl}`;
  return {
    to: owner.email,
    subject,
    text: [...lines, `See your dashboard: ${links.dashboardUrl}`, offNote].join('\n\n'),
    html: emailHtml(subject, [...lines, offNote], { label: 'See your dashboard', href: links.dashboardUrl }),
    logSummary: 'weekly summary',
  };
}
