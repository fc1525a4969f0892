import { describe, expect, it } from 'vitest';
import { tally, tallyEmails } from './tally.ts';

const mail = (to: string, messageId: string | null) => ({
  to: [to],
  raw: `${messageId ? `Message-ID: ${messageId}\r\n` : ''}Subject: Your verification code\r\n\r\nHi`,
});

describe('chaos report counts (issue 27)', () => {
  it('the 60 s SMTP hang: 5 emails delivered, 2 of them twice under one Message-ID, read as 5 sent and 2 repeats', () => {
    const expected = ['a@x.test', 'b@x.test', 'c@x.test', 'd@x.test', 'e@x.test'];
    const deliveries = [
      mail('a@x.test', '<1@w>'),
      mail('b@x.test', '<2@w>'),
      mail('a@x.test', '<1@w>'),
      mail('c@x.test', '<3@w>'),
      mail('B@x.test', '<2@w>'),
      mail('d@x.test', '<4@w>'),
      mail('e@x.test', '<5@w>'),
    ];
    expect(tallyEmails(expected, deliveries)).toEqual({
      sent: 5,
      lost: 0,
      duplicated: 2,
      sameMessageId: 2,
      deliveries: 7,
    });
    // Counting recipients reached exactly once was the old "emails 3/5".
    expect(
      tally(
        expected,
        deliveries.flatMap((d) => d.to.map((to) => to.toLowerCase())),
      ).once,
    ).toBe(3);
  });

  it('a second email with a new Message-ID is a duplicate outside the documented window; a missing one is lost', () => {
    const deliveries = [mail('a@x.test', '<1@w>'), mail('a@x.test', '<9@w>'), mail('z@x.test', '<7@w>')];
    expect(tallyEmails(['a@x.test', 'b@x.test'], deliveries)).toEqual({
      sent: 2,
      lost: 1,
      duplicated: 1,
      sameMessageId: 0,
      deliveries: 3,
    });
  });

  it('messages without a Message-ID each count as their own email', () => {
    const result = tallyEmails(['a@x.test'], [mail('a@x.test', null), mail('a@x.test', null)]);
    expect(result).toMatchObject({ sent: 2, duplicated: 1, sameMessageId: 0 });
  });

  it('tally: delivered counts recipients reached at least once, duplicated the extra deliveries', () => {
    expect(tally(['1', '2', '3'], ['1', '1', '2', '9'])).toEqual({
      once: 1,
      delivered: 2,
      lost: 1,
      duplicated: 1,
    });
  });
});
