import { readReply } from '@waitlist/contract';

const isClaim = (text: string) => readReply(text).claim;

import { describe, expect, it } from 'vitest';

/** Issue 15: the documented claim words (packages/contract/src/replies.ts), as customers type them. */
describe('readReply: claims', () => {
  it.each([
    'YES',
    'yes',
    ' Yes ',
    'yes!',
    'Yes.',
    '"YES!!"',
    'Yes please!',
    'yes please',
    'YES PLEASE 🙏',
    'y',
    'Y.',
    'yep',
    'Yup!',
    'yeah',
    'Yeah!!',
    'ya',
    'ok',
    'OK!',
    'okay',
    "ok I'll take it",
    'OK I’ll take it!',
    "yes I'll take it",
    "I'll take it",
    'i will take it',
    'I want it',
    'book me',
    'Yes, book me in',
    'count me in',
    'Me!',
    'mine',
    'sure',
    'Sure!',
    'yes yes',
    'ok yes please 👍',
    'Yes thank you',
    'Absolutely!',
  ])('%j claims the slot', (text) => {
    expect(isClaim(text)).toBe(true);
  });

  it.each([
    'no',
    'No thanks',
    'nope',
    'not yes',
    'yes?',
    'Is it still free?',
    'yes but not today',
    "yes but I can't before 4",
    "yes I'm running late",
    'yesterday',
    'yess I mean maybe',
    'what time?',
    'STOP',
    'help',
    '',
    '   ',
    '👍',
    'Thanks',
    'Can I come at 4 instead',
  ])('%j does not claim', (text) => {
    expect(isClaim(text)).toBe(false);
  });
});
