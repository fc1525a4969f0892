/**
 * Reads the claims of a JWT (a Google credential, an Apple identity token) without checking it. The
 * browser only needs the email, subject and names to fill the SPEC's fields; the server verifies the
 * signature, issuer, audience and expiry itself, and its verified values win.
 */
export function decodeIdTokenClaims(token: string): Record<string, unknown> | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=');
    const bytes = Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return claims && typeof claims === 'object' && !Array.isArray(claims)
      ? (claims as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export const claimString = (claims: Record<string, unknown>, name: string): string => {
  const value = claims[name];
  return typeof value === 'string' ? value : '';
};
