import {
  type CalendarConnection,
  type CalendarSettingsBody,
  calendarRuleSchema,
  calendarSettingsBody,
  offerMessages,
} from '@waitlist/contract';
import { z } from 'zod';

const settings = calendarSettingsBody.required();

/** A rule as typed: the price in dollars, '' for no service, staff or price. */
const ruleForm = z.object({
  contains: calendarRuleSchema.shape.contains,
  serviceId: z.string(),
  staffId: z.string(),
  price: z
    .string()
    .trim()
    .regex(/^(\d+(\.\d{1,2})?)?$/, offerMessages.invalidPrice),
});

/** The settings form, checked with the contract's words; excluded words typed as a comma list. */
export const settingsForm = z.object({
  mode: settings.shape.mode,
  horizonDays: settings.shape.horizonDays,
  graceMinutes: settings.shape.graceMinutes,
  exclude: z.string(),
  rules: z.array(ruleForm),
});
export type SettingsFormValues = z.input<typeof settingsForm>;

export const settingsValues = (connection: CalendarConnection): SettingsFormValues => ({
  mode: connection.mode,
  horizonDays: connection.horizonDays,
  graceMinutes: connection.graceMinutes,
  exclude: connection.exclude.join(', '),
  rules: connection.rules.map((rule) => ({
    contains: rule.contains,
    serviceId: rule.serviceId ?? '',
    staffId: rule.staffId ?? '',
    price: rule.priceCents != null ? (rule.priceCents / 100).toFixed(2) : '',
  })),
});

/** "Lunch, Blocked ,, Break" → ["Lunch", "Blocked", "Break"]. */
export const excludeWords = (text: string) =>
  text
    .split(',')
    .map((word) => word.trim())
    .filter(Boolean);

export const toSettingsBody = (values: z.output<typeof settingsForm>): CalendarSettingsBody => ({
  mode: values.mode,
  horizonDays: values.horizonDays,
  graceMinutes: values.graceMinutes,
  exclude: excludeWords(values.exclude),
  rules: values.rules.map((rule) => ({
    contains: rule.contains,
    serviceId: rule.serviceId || null,
    staffId: rule.staffId || null,
    priceCents: rule.price ? Math.round(Number(rule.price) * 100) : null,
  })),
});
