import { businessNameIn, customerWords, type Locale } from '@waitlist/contract';
import type { CustomerRow } from '../../db/rows.ts';
import type { ActedOn, ConversationDeps, Reply } from './conversation.service.ts';
import type { ReplyState } from './reply-policy.ts';

/**
 * "ESPAÑOL" / "ENGLISH" from a customer (issue 28, read before any other meaning): their language is set and
 * they are answered `languageSwitched` in the new one. An opted-out customer's language is set, but nothing
 * is sent to them (they asked for no texts). The owner need not read it: the row's language shows it.
 * A stranger's (not a customer) is not handled here: it goes to the stranger handler as any text, which
 * answers nothing to a word that is not JOIN or its YES.
 */
export async function onLanguageSwitch(
  deps: ConversationDeps,
  reply: Reply & { customer: CustomerRow },
  state: ReplyState,
  language: Locale,
): Promise<ActedOn> {
  const { tx, userId, customer, now } = reply;
  await deps.customers.setLanguage(tx, customer.id, language, now);
  if (!customer.optedOut) {
    const business = businessNameIn(reply.business.named, language);
    await deps.texts.answer(
      tx,
      userId,
      customer,
      customerWords(language).texts.languageSwitched(business),
      now,
    );
  }
  return {
    ...state,
    action: customer.optedOut ? 'ignored' : 'reply',
  };
}
