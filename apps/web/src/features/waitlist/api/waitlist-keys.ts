/** Query keys of the waitlist feature; everything under ['waitlist'] is refetched after a change. */
export const waitlistKeys = {
  all: ['waitlist'] as const,
  list: (filters: { search: string; status: string }) => ['waitlist', 'list', filters] as const,
  lists: ['waitlist', 'list'] as const,
  conversation: (customerId: string) => ['waitlist', 'conversation', customerId] as const,
  templates: ['waitlist', 'templates'] as const,
};
