import { randomUUID } from 'node:crypto';
import type { Locale } from '@waitlist/contract';
import type { Executor } from '../../db/client.ts';
import type { CustomerRow, UserRow } from '../../db/rows.ts';
import { NotFound, TextingRefused } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { enqueueSmsDelivery } from '../../outbox/index.ts';
import { messagingMessages } from './messaging.messages.ts';
import { insertMessage, queuedText } from './messaging.repo.ts';
import { isOptedOut } from './opt-outs.repo.ts';
import type { BusinessNumbers } from './phone-number.ts';
import { insertQueuedTexts } from './text-sending.repo.ts';

export { TextingRefused };

export interface EnqueueSmsInput {
  userId: string;
  customerId?: string | null;
  openingId?: string | null;
  /** E.164. */
  to: string;
  body: string;
  now: Date;
  /** The language the text is written in (issue 28): its first-text opt-out line is too (default: the customer's). */
  language?: Locale;
}

/**
 * The customers texting reads and flags (features/waitlist's repo owns the table; wiring.ts hands these over).
 * Each takes the caller's executor, so it runs in the caller's transaction.
 */
export interface TextingCustomers {
  /** Whatever its status: a removed customer can still be answered. */
  findCustomerAnyStatus(executor: Executor, userId: string, id: string): Promise<CustomerRow | undefined>;
  findCustomerByPhone(executor: Executor, userId: string, phone: string): Promise<CustomerRow | undefined>;
  claimFirstText(executor: Executor, customerId: string): Promise<boolean>;
  claimCustomersForText(
    executor: Executor,
    input: { userId: string; customerIds: string[]; allowOptedOut: boolean },
  ): Promise<{ id: string; phone: string; wasFirstTextSent: boolean }[]>;
}

/**
 * Texting's one writer of texts: `enqueueSms` queues one text from the business's verified number, in the
 * caller's transaction: a 'queued' messages row and its outbox row. The first text to a customer ends with
 * "Reply STOP to opt out". Refuses (TextingRefused, 403) when the number is not verified or the phone opted
 * out of the business (sms_opt_outs, whoever the text is for: a customer, a join request, anyone; issue 24).
 * The caller wakes the outbox after its transaction commits.
 */
/** What texting reads and flags outside its own tables (handed over in wiring.ts). */
interface TextingParts {
  customers: TextingCustomers;
  numbers: Pick<BusinessNumbers, 'findSender'>;
}

/**
 * The common case (waitlist customers of a business with a verified number) for any number of texts in
 * two statements: the customers claimed together, the messages and their outbox rows inserted together in
 * the order given. Answers the message ids in that order, null for a text it could not take (refused or not
 * found), which the caller sends the general way to learn why.
 */
async function queueCommon(
  parts: TextingParts,
  executor: Executor,
  inputs: EnqueueSmsInput[],
): Promise<(string | null)[]> {
  const userId = inputs[0]?.userId;
  const customerIds = inputs.map((input) => input.customerId);
  if (!userId || inputs.some((input) => input.userId !== userId) || customerIds.some((id) => !id)) {
    return inputs.map(() => null);
  }
  const claimed = new Map(
    (
      await parts.customers.claimCustomersForText(executor, {
        userId,
        customerIds: [...new Set(customerIds as string[])],
        allowOptedOut: false,
      })
    ).map((row) => [row.id, row]),
  );
  // Plain letters (issue 28) are the business's choice, read only when a Spanish text is among these.
  const plainLetters =
    inputs.some((input) => input.language === 'es') &&
    (await parts.numbers.findSender(executor, userId))?.plainSpanishLetters === true;
  const texts = inputs.flatMap((input) => {
    const customer = claimed.get(input.customerId!);
    if (!customer) return [];
    // A customer texted twice in one batch gets the opt-out footer once, on the first.
    claimed.set(customer.id, { ...customer, wasFirstTextSent: true });
    const text = queuedText(input.body, {
      firstText: !customer.wasFirstTextSent,
      locale: input.language,
      plainLetters,
    });
    return [
      {
        input,
        text: {
          id: randomUUID(),
          customerId: customer.id,
          openingId: input.openingId ?? null,
          to: customer.phone,
          ...text,
        },
      },
    ];
  });
  const inserted = await insertQueuedTexts(executor, {
    userId,
    now: inputs[0]!.now,
    texts: texts.map(({ text }) => text),
  });
  // A text not inserted (the number is not verified, or the phone opted out) goes the general way, which
  // says why.
  const ids = new Map(texts.flatMap(({ input, text }) => (inserted.has(text.id) ? [[input, text.id]] : [])));
  return inputs.map((input) => ids.get(input) ?? null);
}

/**
 * Why a business cannot text yet (no number, its verification pending or failed), as the refusal the owner
 * reads; null when its number is verified. Openings ask it before planning (issue 26: a text held for quiet
 * hours would otherwise learn it only at 8:00).
 */
export function senderRefusal(
  sender: Pick<UserRow, 'plivoNumber' | 'plivoNumberStatus' | 'plivoNumberError'>,
): TextingRefused | null {
  if (sender.plivoNumber && sender.plivoNumberStatus === 'verified') return null;
  const message = !sender.plivoNumber
    ? messagingMessages.noNumber
    : sender.plivoNumberStatus === 'failed'
      ? messagingMessages.numberFailed(sender.plivoNumberError)
      : messagingMessages.numberPending;
  return new TextingRefused('number_not_verified', message);
}

/**
 * Any text the common case did not take: a compliance answer, a number with no customer, or a refusal,
 * which this path names (TextingRefused: the number is not verified, or the customer opted out).
 */
async function queueGeneral(
  parts: TextingParts,
  executor: Executor,
  input: EnqueueSmsInput,
  options: { compliance: boolean },
): Promise<{ messageId: string }> {
  const sender = await parts.numbers.findSender(executor, input.userId);
  if (!sender) throw new NotFound(messagingMessages.customerNotFound);
  const refused = senderRefusal(sender);
  if (refused || !sender.plivoNumber) throw refused;
  const customer = input.customerId
    ? await parts.customers.findCustomerAnyStatus(executor, input.userId, input.customerId)
    : await parts.customers.findCustomerByPhone(executor, input.userId, input.to);
  if (input.customerId && !customer) throw new NotFound(messagingMessages.customerNotFound);
  const to = customer?.phone ?? input.to;
  if (!options.compliance && (customer?.optedOut || (await isOptedOut(executor, input.userId, to)))) {
    throw new TextingRefused(
      'opted_out',
      customer ? messagingMessages.optedOut(customer.name) : messagingMessages.numberOptedOut,
    );
  }
  const firstText =
    customer !== undefined &&
    !options.compliance &&
    (await parts.customers.claimFirstText(executor, customer.id));
  const text = queuedText(input.body, {
    firstText,
    locale: input.language ?? customer?.language,
    plainLetters: sender.plainSpanishLetters,
  });
  const message = await insertMessage(executor, {
    userId: input.userId,
    customerId: customer?.id ?? null,
    openingId: input.openingId ?? null,
    direction: 'out',
    fromNumber: sender.plivoNumber,
    toNumber: to,
    ...text,
    status: 'queued',
    createdAt: input.now,
  });
  await enqueueSmsDelivery(
    executor,
    [options.compliance ? { messageId: message.id, compliance: true } : { messageId: message.id }],
    input.now,
  );
  return { messageId: message.id };
}

export function createTexting(
  customers: TextingCustomers,
  numbers: Pick<BusinessNumbers, 'findSender'>,
  logger?: Logger,
) {
  const parts: TextingParts = { customers, numbers };
  async function queueText(
    executor: Executor,
    input: EnqueueSmsInput,
    options: { compliance: boolean },
  ): Promise<{ messageId: string }> {
    if (input.customerId && !options.compliance) {
      const [messageId] = await queueCommon(parts, executor, [input]);
      if (messageId) return { messageId };
    }
    return queueGeneral(parts, executor, input, options);
  }

  /** A text that may be refused (number not verified, opted out): logged and skipped instead of thrown. */
  async function queueOrSkip(
    executor: Executor,
    input: EnqueueSmsInput,
    options: { compliance: boolean },
  ): Promise<{ messageId: string } | null> {
    try {
      return await queueText(executor, input, options);
    } catch (error) {
      if (!(error instanceof TextingRefused)) throw error;
      logger?.warn({ userId: input.userId, reason: error.reason }, 'text not sent');
      return null;
    }
  }

  return {
    async enqueueSms(executor: Executor, input: EnqueueSmsInput): Promise<{ messageId: string }> {
      return queueText(executor, input, { compliance: false });
    },
    /**
     * Texts of one business, queued together in the order given (issue 16: telling 99 customers a slot is
     * taken was 300 statements in the winner's transaction, now 3). Each text is what enqueueSms would queue,
     * and one it refuses throws as enqueueSms would.
     */
    async enqueueSmsMany(executor: Executor, inputs: EnqueueSmsInput[]): Promise<{ messageId: string }[]> {
      const queued = await queueCommon(parts, executor, inputs);
      const results: { messageId: string }[] = [];
      for (const [index, input] of inputs.entries()) {
        const messageId = queued[index];
        // One the common case did not take goes the general way, which queues it or says why not.
        results.push(
          messageId ? { messageId } : await queueGeneral(parts, executor, input, { compliance: false }),
        );
      }
      return results;
    },
    /** enqueueSms, or nothing (logged) when the text is refused: the automatic answer, a join confirmation. */
    queueOrSkip: (executor: Executor, input: EnqueueSmsInput) =>
      queueOrSkip(executor, input, { compliance: false }),
    /**
     * A compliance answer (STOP, START, HELP confirmations): sent even to a phone that just opted out, never
     * with the first-text footer; skipped (logged) when the business's number cannot text.
     */
    async answer(
      executor: Executor,
      userId: string,
      to: Pick<CustomerRow, 'id' | 'phone'> | { id: null; phone: string },
      body: string,
      now: Date,
    ): Promise<void> {
      await queueOrSkip(
        executor,
        { userId, customerId: to.id, to: to.phone, body, now },
        { compliance: true },
      );
    },
  };
}

export type Texting = ReturnType<typeof createTexting>;
