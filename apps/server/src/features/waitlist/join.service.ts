import { randomBytes } from 'node:crypto';
import {
  type CustomerLanguage,
  customerWords,
  type JoinBody,
  type Locale,
  normalizePhone,
} from '@waitlist/contract';
import type { Database, Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import { addressKey } from '../../lib/address-key.ts';
import type { Clock } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { BadRequest, Forbidden, NotFound, TextingRefused, TooManyRequests } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import { businessCountry, isTextableNumber } from '../../lib/textable-number.ts';
import type { StrangerHandler } from '../conversation/conversation.service.ts';
import type { EnqueueSmsInput } from '../messaging/messaging.service.ts';
import { freePlaces, hasRoom, ownIdOrNull } from './customer-fields.ts';
import * as joinRepo from './join.repo.ts';
import { businessOf, type Confirmation, createJoinByText } from './join-by-text.ts';
import type { JoinProof } from './join-proof.ts';
import { createQrCodes } from './join-qr.ts';
import * as repo from './waitlist.repo.ts';
import type { EntryCatalog } from './waitlist.types.ts';

/** The consent wording as the customer read it, in the join page's language (issue 28). */
const consentAsRead = (language: CustomerLanguage | undefined, business: string) =>
  customerWords(language).join.consent(business);

/** What joining needs from other features, wired in composition.ts (decision 0008). */
export interface JoinDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  /** joinIp, joinProofIp, joinMissIp, joinChallengeIp (per address: IPv6 by /64), joinPhone. */
  limiter: Pick<RateLimiter, 'consume' | 'check'>;
  /** The join page's proof of work (join-proof.ts). */
  proof: Pick<JoinProof, 'challenge' | 'take'>;
  /** The business's opt-outs (features/messaging keeps them): a STOP outlives a join request (issue 24). */
  optOuts: {
    optOutsOf(executor: Executor, userId: string, phones: string[]): Promise<Map<string, Date>>;
    removeOptOut(executor: Executor, userId: string, phone: string): Promise<boolean>;
  };
  publicUrl: string;
  /** Wakes the outbox worker after a commit that queued a text. */
  onOutboxWrite?: () => void;
  /** The owners (features/auth's repo owns `users`). */
  owners: {
    findOwnerByJoinSlug(executor: Executor, slug: string): Promise<UserRow | undefined>;
    setJoinSlugIfMissing(executor: Executor, id: string, slug: string): Promise<string | null>;
    lockUser(executor: Executor, id: string): Promise<UserRow | undefined>;
  };
  /** Why the owner's waitlist is read-only now (billing standing), or null: then nobody joins. */
  readOnlyReason: (user: UserRow, now: Date) => string | null;
  /** Texts (features/messaging): queued in the caller's transaction. */
  enqueueSms(executor: Executor, input: EnqueueSmsInput): Promise<{ messageId: string }>;
  /** The business's services and staff (features/services): the page lists them, a request names them. */
  catalog: EntryCatalog;
}

/** Confirmation texts no YES answered (yet) that a business may have out over 24 hours (issue 24). */
export const UNCONFIRMED_TEXTS_PER_DAY = 50;

/**
 * Whether a business may send one more confirmation text (issue 24, SMS pumping): fewer than
 * UNCONFIRMED_TEXTS_PER_DAY unanswered in the last 24 hours, and fewer than twice the places left on its
 * waitlist (`freePlaces` null: the plan has no cap). A pure rule: the caller reads both under the owner's
 * row lock, so a parallel burst is counted one request after the other.
 */
export function mayTextConfirmation(state: { unconfirmedToday: number; freePlaces: number | null }): boolean {
  if (state.unconfirmedToday >= UNCONFIRMED_TEXTS_PER_DAY) return false;
  return state.freePlaces === null || state.unconfirmedToday < 2 * state.freePlaces;
}

/** The QR codes kept in memory (join-qr.ts): enough for every active business of an instance. */
const QR_CODES_KEPT = 500;

/** What a text from a number that is not a customer did (features/messaging's stranger handler). */
export type StrangerAction = 'join_requested' | 'joined' | 'opted_out' | 'ignored';

/** The customer words of join (the page, its answers and the texts), English until a customer has a locale. */
const words = customerWords();
const joinWords = words.join;

/** Under the owner's row lock: whether one more confirmation text fits the business's caps. */
async function confirmationFits(executor: Executor, owner: UserRow, now: Date) {
  const since = new Date(now.getTime() - 24 * 60 * 60 * 1000);
  return mayTextConfirmation({
    unconfirmedToday: await joinRepo.unconfirmedJoinRequestsSince(executor, owner.id, since),
    freePlaces: await freePlaces(executor, owner),
  });
}

/** Whether this address has used its sign-ups without a proof of work for the hour. */
async function proofRequired(limiter: JoinDeps['limiter'], address: string) {
  try {
    await limiter.check('joinProofIp', address);
    return false;
  } catch (error) {
    if (error instanceof TooManyRequests) return true;
    throw error;
  }
}

/**
 * "bella-salon-3f9a1c0e5b7d2a46": the business name, lower case, then a random tail of 64 bits so links
 * cannot be guessed (issue 24; links made earlier with a 20-bit tail keep working, and unknown links are
 * throttled per address).
 */
export function joinSlugFor(businessName: string): string {
  const base =
    businessName
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 32)
      .replace(/-+$/, '') || 'waitlist';
  return `${base}-${randomBytes(8).toString('hex')}`;
}

/**
 * A person is there (issue 24): the first sign-ups of an address in an hour need nothing (joinProofIp);
 * after them, a solved proof of work from our own challenge, each taken once. Throws BadRequest naming the
 * `altcha` field, so the page shows the widget.
 */
async function assertPerson(
  deps: Pick<JoinDeps, 'db' | 'proof' | 'logger' | 'limiter'>,
  request: { slug: string; address: string; payload: string | undefined; now: Date },
) {
  const { slug, address, payload, now } = request;
  if (payload) {
    const refusal = await deps.proof.take(deps.db, slug, payload, now);
    if (!refusal) return;
    deps.logger.info({ refusal }, 'join: proof of work refused');
    throw new BadRequest(joinWords.proofFailed, { altcha: joinWords.proofFailed });
  }
  try {
    await deps.limiter.consume('joinProofIp', address);
  } catch (error) {
    if (!(error instanceof TooManyRequests)) throw error;
    throw new BadRequest(joinWords.proofRequired, { altcha: joinWords.proofRequired });
  }
}

/** The owner's link (made on first use), for the waitlist page's "Let customers join" card. */
async function joinLinkOf(deps: Pick<JoinDeps, 'db' | 'owners' | 'publicUrl'>, user: UserRow) {
  let slug = user.joinSlug;
  for (let attempt = 0; !slug && attempt < 5; attempt += 1) {
    try {
      slug = await deps.owners.setJoinSlugIfMissing(deps.db, user.id, joinSlugFor(user.businessName));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  if (!slug) throw new Error('could not make a join link');
  const url = `${deps.publicUrl}/join/${slug}`;
  const qr = `${deps.publicUrl}/api/v1/join/${slug}/qr`;
  return { slug, url, posterUrl: `${url}/poster`, qrSvgUrl: `${qr}.svg`, qrPngUrl: `${qr}.png` };
}

/**
 * Queues the confirmation; false when the phone opted out of the business (sms_opt_outs: it never gets a new
 * "Reply YES"). Callers pass only numbers the business may text (issue 24): the page checks before it gets
 * here, and texting hands a JOIN on only from such numbers.
 */
async function sendConfirmation(
  deps: Pick<JoinDeps, 'enqueueSms'>,
  executor: Executor,
  owner: UserRow,
  phone: string,
  now: Date,
  language: Locale = 'en',
) {
  try {
    // In the join request's language (issue 28): the page's, or the join word's (UNIRME: Spanish).
    await deps.enqueueSms(executor, {
      userId: owner.id,
      to: phone,
      body: customerWords(language).texts.joinRequest(businessOf(owner, language)),
      language,
      now,
    });
    return true;
  } catch (error) {
    if (!(error instanceof TextingRefused)) throw error;
    if (error.reason === 'number_not_verified') throw new Forbidden(joinWords.cannotText(businessOf(owner)));
    return false;
  }
}

/**
 * Customers join a waitlist themselves (issue 15): the public page's request and the JOIN text both make a
 * pending join request and send one confirmation text; the customer's YES makes them a waiting customer,
 * with the consent wording, time, address and the YES kept as proof (double opt-in).
 */
export function createJoinService(deps: JoinDeps) {
  const { db, clock, owners } = deps;
  const qrCodes = createQrCodes({ max: QR_CODES_KEPT });
  const send: Confirmation['send'] = (...args) => sendConfirmation(deps, ...args);
  const onStranger = createJoinByText(deps, { fits: confirmationFits, send });

  /**
   * The business behind a join link. Unknown links are counted per address (joinMissIp): past the budget the
   * address gets 429 for any link, so links cannot be listed by trying (issue 24).
   */
  async function ownerOf(slug: string, address: string) {
    await deps.limiter.check('joinMissIp', address);
    const owner = await owners.findOwnerByJoinSlug(db, slug);
    if (!owner) {
      await deps.limiter.consume('joinMissIp', address);
      throw new NotFound(joinWords.notFound);
    }
    return owner;
  }

  return {
    /** The owner's link (made on first use), for the waitlist page's "Let customers join" card. */
    joinLink: (user: UserRow) => joinLinkOf(deps, user),

    /** GET /join/{slug}: what the public page shows; nothing about the customers. */
    async page(slug: string, ip: string) {
      const address = addressKey(ip);
      const owner = await ownerOf(slug, address);
      return {
        businessName: businessOf(owner),
        consentText: joinWords.consent(businessOf(owner)),
        // Only a verified number answers a JOIN text (issue 27: the poster prints it).
        textNumber: owner.plivoNumberStatus === 'verified' ? owner.plivoNumber : null,
        full: !(await hasRoom(db, owner, 1)),
        proofRequired: await proofRequired(deps.limiter, address),
        services: (await deps.catalog.listServices(db, owner.id)).map(({ id, name }) => ({ id, name })),
        staff: (await deps.catalog.listStaff(db, owner.id)).map(({ id, name }) => ({ id, name })),
      };
    },

    /** GET /join/{slug}/challenge: a proof-of-work challenge for the link (a few per address an hour). */
    async challenge(slug: string, ip: string) {
      const address = addressKey(ip);
      await ownerOf(slug, address);
      await deps.limiter.consume('joinChallengeIp', address);
      return deps.proof.challenge(slug, clock.now());
    },

    /** The link's QR code, drawn once per link and kept (issue 24). */
    async qrCode(slug: string, format: 'png' | 'svg', ip: string) {
      await ownerOf(slug, addressKey(ip));
      const url = `${deps.publicUrl}/join/${slug}`;
      return format === 'png' ? qrCodes.png(url) : qrCodes.svg(url);
    },

    /**
     * POST /join/{slug}: one confirmation text; the same friendly answer whatever the phone's history (on the
     * list already, opted out). Only numbers the business may text are taken (issue 24).
     */
    async request(slug: string, body: JoinBody, meta: { ip: string; userAgent: string | undefined }) {
      const address = addressKey(meta.ip);
      const owner = await ownerOf(slug, address);
      // The answer and refusals in the page's language (issue 28).
      const said = customerWords(body.language).join;
      const answer = said.checkYourTexts(businessOf(owner, body.language));
      await deps.limiter.consume('joinIp', address);
      // The honeypot: filled only by bots. They get the usual answer; nothing is kept or sent.
      if (body.website?.trim()) return answer;
      const phone = normalizePhone(body.phone)!;
      if (!isTextableNumber(phone, businessCountry(owner)))
        throw new BadRequest(said.notTextable, { phone: said.notTextable });
      const now = clock.now();
      await assertPerson(deps, { slug, address, payload: body.altcha, now });
      await deps.limiter.consume('joinPhone', `${owner.id}:${phone}`);
      const queued = await db.transaction(async (tx) => {
        const locked = (await owners.lockUser(tx, owner.id)) ?? owner;
        if (await repo.findActiveByPhone(tx, owner.id, phone)) return false; // already on it: say nothing more
        if (deps.readOnlyReason(locked, now))
          throw new Forbidden(said.cannotText(businessOf(locked, body.language)));
        if (!(await hasRoom(tx, locked, 1)))
          throw new Forbidden(said.full(businessOf(locked, body.language)));
        // Decided here, under the lock, so a parallel burst meets the cap one request at a time.
        if (!(await confirmationFits(tx, locked, now)))
          throw new Forbidden(said.busy(businessOf(locked, body.language)));
        if (!(await send(tx, locked, phone, now, body.language))) return false;
        await joinRepo.insertJoinRequest(tx, {
          userId: owner.id,
          name: body.name.trim(),
          phone,
          method: 'web_form',
          language: body.language ?? 'en',
          consentText: consentAsRead(body.language, businessOf(locked)),
          ipAddress: meta.ip,
          userAgent: meta.userAgent?.slice(0, 300) ?? null,
          // Kept only when they are this business's own: another id is dropped without a word.
          serviceId: await ownIdOrNull(deps.catalog.findService, tx, owner.id, body.serviceId),
          staffId: await ownIdOrNull(deps.catalog.findStaff, tx, owner.id, body.staffId),
          createdAt: now,
        });
        return true;
      });
      if (queued) deps.onOutboxWrite?.();
      return answer;
    },

    /**
     * A text to a business from a number that is not its customer (texting calls this inside the inbound
     * transaction): JOIN starts a request; YES confirms a pending one; STOP cancels it (join-by-text.ts).
     */
    onStranger: (input: Parameters<StrangerHandler>[0]) => onStranger(input),
  };
}
export type JoinService = ReturnType<typeof createJoinService>;
