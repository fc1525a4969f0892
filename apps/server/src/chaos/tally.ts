/**
 * How the chaos report counts what the providers received (pure, so it is tested without a fault run).
 */

/** Per expected recipient, how many times the provider got it: once, at least once, lost (0), duplicated (extra). */
export function tally(expected: string[], delivered: string[]) {
  const counts = new Map(expected.map((key) => [key, 0]));
  for (const key of delivered) if (counts.has(key)) counts.set(key, counts.get(key)! + 1);
  const values = [...counts.values()];
  return {
    once: values.filter((c) => c === 1).length,
    delivered: values.filter((c) => c > 0).length,
    lost: values.filter((c) => c === 0).length,
    duplicated: values.reduce((sum, c) => sum + Math.max(0, c - 1), 0),
  };
}

/** One SMTP delivery as the fake server saw it: its envelope recipients and the raw message. */
export interface SmtpDelivery {
  to: string[];
  raw: string;
}

const messageIdOf = (raw: string) => /^Message-ID:\s*(\S+)/im.exec(raw)?.[1];

/**
 * Emails to the expected recipients, counted by Message-ID (issue 27): `sent` is the distinct emails delivered
 * (a message that arrived twice is one email sent), `duplicated` every delivery past the first of each
 * recipient, `sameMessageId` the part of those that repeated a Message-ID already delivered (an SMTP server
 * that accepted after our timeout: the documented window), and `lost` the recipients who got nothing.
 */
export function tallyEmails(expected: string[], deliveries: SmtpDelivery[]) {
  const wanted = new Set(expected.map((address) => address.toLowerCase()));
  const deliveriesTo = new Map<string, number>();
  const messageIdsTo = new Map<string, Set<string>>();
  for (const [n, delivery] of deliveries.entries()) {
    // A message without a Message-ID counts as its own email.
    const messageId = messageIdOf(delivery.raw) ?? `#${n}`;
    for (const address of delivery.to.map((to) => to.toLowerCase())) {
      if (!wanted.has(address)) continue;
      deliveriesTo.set(address, (deliveriesTo.get(address) ?? 0) + 1);
      messageIdsTo.set(address, (messageIdsTo.get(address) ?? new Set()).add(messageId));
    }
  }
  let sent = 0;
  let duplicated = 0;
  let sameMessageId = 0;
  for (const address of wanted) {
    const count = deliveriesTo.get(address) ?? 0;
    const distinct = messageIdsTo.get(address)?.size ?? 0;
    sent += distinct;
    duplicated += Math.max(0, count - 1);
    sameMessageId += count - distinct;
  }
  const lost = [...wanted].filter((address) => !deliveriesTo.has(address)).length;
  return { sent, lost, duplicated, sameMessageId, deliveries: deliveries.length };
}
