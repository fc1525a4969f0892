import type { Answer, FakeAccount, Json } from './account.ts';

/** One API call as the routes see it: the form-decoded query and body, and the `expand` list. */
export interface FakeRequest {
  method: string;
  path: string;
  query: Json;
  body: Json;
  expand: string[];
}

/** A group of the fake API's routes: the answer, or undefined when no route of the group matches. */
export type FakeRoutes = (account: FakeAccount, request: FakeRequest) => Answer | undefined;
