import { randomBytes } from 'node:crypto';
import { isClaim, type JoinBody, joinMessages, normalizePhone, normalizeReply } from '@waitlist/contract';
import type { Database, Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import type { Clock } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { Forbidden, NotFound } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import {
  type EnqueueSmsInput,
  type StrangerHandler,
  TextingRefused,
} from '../messaging/messaging.service.ts';
import * as joinRepo from './join.repo.ts';
import * as repo from './waitlist.repo.ts';
import { hasRoom } from './waitlist.service.ts';

/** What joining needs from other features, wired in app.ts (decision 0008). */
export interface JoinDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  limiter: Pick<RateLimiter, 'consume'>;
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
}

/** Confirmation texts a day to one phone that asked by texting JOIN. */
export const JOIN_TEXTS_PER_DAY = 3;

/** What a text from a number that is not a customer did (features/messaging's stranger handler). */
export type StrangerAction = 'join_requested' | 'joined' | 'opted_out' | 'ignored';

const businessOf = (owner: UserRow) => owner.businessName || 'Your business';

/** "bella-salon-k3x9": the business name, lower case, then a random tail so links cannot be guessed. */
export function joinSlugFor(businessName: string): string {
  const base =
    businessName
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 32)
      .replace(/-+$/, '') || 'waitlist';
  return `${base}-${randomBytes(3).toString('hex').slice(0, 5)}`;
}

/**
 * Customers join a waitlist themselves (issue 15): the public page's request and the JOIN text both make a
 * pending join request and send one confirmation text; the customer's YES makes them a waiting customer,
 * with the consent wording, time, address and the YES kept as proof (double opt-in).
 */
export function createJoinService(deps: JoinDeps) {
  const { db, clock, owners } = deps;

  async function ownerOf(executor: Executor, slug: string) {
    const owner = await owners.findOwnerByJoinSlug(executor, slug);
    if (!owner) throw new NotFound(joinMessages.notFound);
    return owner;
  }

  /** Queues the confirmation; false when the number cannot text or the phone opted out before. */
  async function sendConfirmation(executor: Executor, owner: UserRow, phone: string, now: Date) {
    try {
      await deps.enqueueSms(executor, {
        userId: owner.id,
        to: phone,
        body: joinMessages.confirmText(businessOf(owner)),
        now,
      });
      return true;
    } catch (error) {
      if (!(error instanceof TextingRefused)) throw error;
      if (error.reason === 'number_not_verified')
        throw new Forbidden(joinMessages.cannotText(businessOf(owner)));
      return false;
    }
  }

  return {
    /** The owner's link (made on first use), for the waitlist page's "Let customers join" card. */
    async joinLink(user: UserRow) {
      let slug = user.joinSlug;
      for (let attempt = 0; !slug && attempt < 5; attempt += 1) {
        try {
          slug = await owners.setJoinSlugIfMissing(db, user.id, joinSlugFor(user.businessName));
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
        }
      }
      if (!slug) throw new Error('could not make a join link');
      const url = `${deps.publicUrl}/join/${slug}`;
      const qr = `${deps.publicUrl}/api/v1/join/${slug}/qr`;
      return { slug, url, posterUrl: `${url}/poster`, qrSvgUrl: `${qr}.svg`, qrPngUrl: `${qr}.png` };
    },

    /** GET /join/{slug}: what the public page shows; nothing about the customers. */
    async page(slug: string) {
      const owner = await ownerOf(db, slug);
      return {
        businessName: businessOf(owner),
        consentText: joinMessages.consent(businessOf(owner)),
        full: !(await hasRoom(db, owner, 1)),
      };
    },

    /** The URL a join link's QR code holds. */
    async joinUrl(slug: string) {
      await ownerOf(db, slug);
      return `${deps.publicUrl}/join/${slug}`;
    },

    /** POST /join/{slug}: one confirmation text; the same friendly answer whatever the phone's history. */
    async request(slug: string, body: JoinBody, meta: { ip: string; userAgent: string | undefined }) {
      const owner = await ownerOf(db, slug);
      const answer = joinMessages.checkYourTexts(businessOf(owner));
      await deps.limiter.consume('joinIp', meta.ip);
      // The honeypot: filled only by bots. They get the usual answer; nothing is kept or sent.
      if (body.website?.trim()) return answer;
      const phone = normalizePhone(body.phone)!;
      await deps.limiter.consume('joinPhone', `${owner.id}:${phone}`);
      const now = clock.now();
      const queued = await db.transaction(async (tx) => {
        const locked = (await owners.lockUser(tx, owner.id)) ?? owner;
        if (await repo.findActiveByPhone(tx, owner.id, phone)) return false; // already on it: say nothing more
        if (deps.readOnlyReason(locked, now))
          throw new Forbidden(joinMessages.cannotText(businessOf(locked)));
        if (!(await hasRoom(tx, locked, 1))) throw new Forbidden(joinMessages.full(businessOf(locked)));
        if (!(await sendConfirmation(tx, locked, phone, now))) return false;
        await joinRepo.insertJoinRequest(tx, {
          userId: owner.id,
          name: body.name.trim(),
          phone,
          method: 'web_form',
          consentText: joinMessages.consent(businessOf(locked)),
          ipAddress: meta.ip,
          userAgent: meta.userAgent?.slice(0, 300) ?? null,
          createdAt: now,
        });
        return true;
      });
      if (queued) deps.onOutboxWrite?.();
      return answer;
    },

    /**
     * A text to a business from a number that is not its customer (features/messaging calls this inside the
     * inbound transaction): JOIN starts a request; YES confirms a pending one; STOP cancels it.
     */
    async onStranger(input: Parameters<StrangerHandler>[0]): Promise<StrangerAction> {
      const { tx, userId, from, body, now } = input;
      const pending = await joinRepo.pendingJoinRequest(tx, userId, from);
      if (input.keyword === 'stop') {
        if (!pending) return 'ignored';
        await joinRepo.settleJoinRequests(tx, userId, from, { status: 'cancelled' });
        const owner = await owners.lockUser(tx, userId);
        if (owner) {
          await deps
            .enqueueSms(tx, { userId, to: from, body: joinMessages.stoppedText(businessOf(owner)), now })
            .catch((error) => {
              if (!(error instanceof TextingRefused)) throw error;
            });
        }
        return 'opted_out';
      }
      if (input.keyword) return 'ignored';
      const words = normalizeReply(body).split(' ');
      if (pending && isClaim(body)) {
        const owner = await owners.lockUser(tx, userId);
        if (!owner) return 'ignored';
        const existing = await repo.findActiveByPhone(tx, userId, from);
        if (!existing && !(await hasRoom(tx, owner, 1))) {
          await joinRepo.settleJoinRequests(tx, userId, from, { status: 'full' });
          await deps.enqueueSms(tx, {
            userId,
            to: from,
            body: joinMessages.fullText(businessOf(owner)),
            now,
          });
          return 'ignored';
        }
        const customer =
          existing ??
          (
            await repo.insertCustomers(tx, [
              {
                userId,
                name: pending.name,
                phone: from,
                notes: '',
                consentMethod: pending.method,
                consentedAt: now,
                preferences: [],
                position: await repo.nextPosition(tx, userId),
                createdAt: now,
                updatedAt: now,
              },
            ])
          )[0]!;
        await joinRepo.settleJoinRequests(tx, userId, from, {
          status: 'confirmed',
          confirmedAt: now,
          confirmationMessageId: input.messageId,
          customerId: customer.id,
        });
        await deps.enqueueSms(tx, {
          userId,
          customerId: customer.id,
          to: from,
          body: joinMessages.welcomeText(businessOf(owner)),
          now,
        });
        return 'joined';
      }
      if (words[0] === 'join' && !pending) {
        const owner = await owners.lockUser(tx, userId);
        if (!owner || deps.readOnlyReason(owner, now) || !(await hasRoom(tx, owner, 1))) return 'ignored';
        // At most JOIN_TEXTS_PER_DAY confirmation texts a day to one phone (counted in this transaction: the
        // rate limiter would wait on it).
        const since = new Date(now.getTime() - 24 * 60 * 60 * 1000);
        if ((await joinRepo.joinRequestsSince(tx, userId, from, since)) >= JOIN_TEXTS_PER_DAY)
          return 'ignored';
        // "JOIN Priya Shah": the name is what follows the word, as typed.
        const name =
          body
            .trim()
            .replace(/^\W*join\b[\s,:.-]*/i, '')
            .slice(0, 100) || 'Texted JOIN';
        if (!(await sendConfirmation(tx, owner, from, now))) return 'ignored';
        await joinRepo.insertJoinRequest(tx, {
          userId,
          name,
          phone: from,
          method: 'text_keyword',
          consentText: joinMessages.textConsent,
          createdAt: now,
        });
        return 'join_requested';
      }
      return 'ignored';
    },
  };
}
export type JoinService = ReturnType<typeof createJoinService>;
