/** The email a screen was sent on with (`navigate(to, { state: { email } })`), to prefill its form; else ''. */
export function emailFrom(state: unknown): string {
  const email = (state as { email?: unknown } | null)?.email;
  return typeof email === 'string' ? email : '';
}
