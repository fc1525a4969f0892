import { createHmac, timingSafeEqual } from 'node:crypto';

/** Form fields of a webhook: a name may repeat. */
export type SignedParams = Record<string, string | string[]>;

const sortedValues = (value: string | string[]) => (Array.isArray(value) ? [...value] : [value]).sort();

/**
 * The string Plivo signs (signature V3): the URL's scheme, host and path; then `?` and its query parameters
 * sorted as `k=v&k=v` when there are any (or when the request has POST parameters); a `.` between query and
 * POST parameters when it has both; then the POST parameters sorted by name as `namevalue…`; and finally
 * `.` and the nonce. GET requests fold their parameters into the query instead.
 */
export function plivoV3Payload(
  method: string,
  url: string,
  nonce: string,
  params: SignedParams = {},
): string {
  const parsed = new URL(url);
  const query: Record<string, string[]> = {};
  const add = (key: string, values: string[]) => {
    query[key] = [...(query[key] ?? []), ...values];
  };
  for (const [key, value] of parsed.searchParams) add(key, [value]);
  const isGet = method.toUpperCase() === 'GET';
  if (isGet) for (const [key, value] of Object.entries(params)) add(key, sortedValues(value));
  const postParams = isGet ? {} : params;
  const hasPost = Object.keys(postParams).length > 0;

  const queryString = Object.keys(query)
    .sort()
    .flatMap((key) => query[key]!.sort().map((value) => `${key}=${value}`))
    .join('&');
  let base = `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  if (queryString.length > 0 || hasPost) base += `?${queryString}`;
  if (queryString.length > 0 && hasPost) base += '.';
  base += Object.keys(postParams)
    .sort()
    .flatMap((key) => sortedValues(postParams[key]!).map((value) => `${key}${value}`))
    .join('');
  return `${base}.${nonce}`;
}

export function plivoV3Signature(
  authToken: string,
  method: string,
  url: string,
  nonce: string,
  params: SignedParams = {},
): string {
  return createHmac('sha256', authToken)
    .update(plivoV3Payload(method, url, nonce, params))
    .digest('base64');
}

/**
 * Plivo's nonces are digits (we allow letters too). What matters is that a nonce holds no `.`: the signed string
 * ends with `.` + nonce, so a nonce with a dot could be cut further left (`…Text=ok. thanks….N` read as a
 * shorter request with nonce ` thanks….N`) and a captured request would verify under a nonce never seen.
 * Without dots the nonce is pinned to the original one, and recording it (plivo-webhooks.routes.ts) is enough.
 */
export const PLIVO_NONCE = /^[A-Za-z0-9]{1,128}$/;

/** The header may carry several comma-separated signatures (e.g. during a token rotation); one must match. */
export function verifyPlivoV3Signature(input: {
  authToken: string;
  method: string;
  url: string;
  nonce: string | undefined;
  signature: string | undefined;
  params?: SignedParams;
}): boolean {
  if (!input.nonce || !input.signature || !PLIVO_NONCE.test(input.nonce)) return false;
  const expected = Buffer.from(
    plivoV3Signature(input.authToken, input.method, input.url, input.nonce, input.params),
  );
  return input.signature.split(',').some((candidate) => {
    const given = Buffer.from(candidate.trim());
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
