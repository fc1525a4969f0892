import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.ts';
import { type TestApp, uniqueIp } from '../../test/test-app.ts';

/** Shared by the social sign-in API tests: POST /auth/external as a browser sends it. */

export function externalAuth(t: TestApp, payload: Record<string, unknown>, remoteAddress = uniqueIp()) {
  return t.app.inject({ method: 'POST', url: '/api/v1/auth/external', payload, remoteAddress });
}

export async function usersWithEmail(t: TestApp, email: string) {
  return t.database.db.select().from(users).where(eq(users.email, email.toLowerCase()));
}
