import { screen, waitFor, within } from '@testing-library/react';
import type { ConversationSummary, InboxMessage } from '@waitlist/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import { type MockAnswer, mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { makeCustomer, makeMessage } from '../../../test/waitlist-fixtures.ts';

const ann = makeCustomer({ name: 'Ann Lee', phone: '+12125550101' });
const bob = makeCustomer({ name: 'Bob Stone', phone: '+12125550102', optedOut: true });

const conversations: ConversationSummary[] = [
  {
    customer: ann,
    lastMessage: { body: 'Can I come at 4 instead?', direction: 'in', createdAt: '2030-01-03T18:05:00.000Z' },
    lastReply: { body: 'Can I come at 4 instead?', createdAt: '2030-01-03T18:05:00.000Z' },
    unread: 2,
  },
  {
    customer: bob,
    lastMessage: { body: 'Thanks!', direction: 'out', createdAt: '2030-01-03T17:00:00.000Z' },
    lastReply: null,
    unread: 0,
  },
];

const annThread: InboxMessage[] = [
  {
    ...makeMessage({ body: 'A spot opened: Color, Fri 3 PM. Reply YES', status: 'delivered' }),
    context: null,
  },
  {
    ...makeMessage({ direction: 'in', body: 'Can I come at 4 instead?', status: 'received' }),
    context: {
      openingId: 'op-1',
      service: 'Color',
      startsAt: '2030-01-04T20:00:00.000Z',
      status: 'open',
      won: false,
    },
  },
];

function openInbox(
  path: string,
  handlers: Record<string, MockAnswer | ((call: { body: unknown }) => MockAnswer)> = {},
) {
  const api = mockSignedIn(makeUser({ plivoNumberStatus: 'verified' }), {
    'GET /inbox': {
      body: { success: true, data: conversations, nextCursor: null, timeZone: 'America/New_York' },
    },
    'GET /inbox/unread': { body: { success: true, data: { unread: 2 } } },
    [`GET /inbox/${ann.id}`]: {
      body: { success: true, customer: ann, data: annThread, timeZone: 'America/New_York' },
    },
    [`GET /inbox/${bob.id}`]: {
      body: { success: true, customer: bob, data: [], timeZone: 'America/New_York' },
    },
    ...handlers,
  });
  const app = renderApp(path, { token: 'tok' });
  return { api, app };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the inbox (issue 15)', () => {
  it('lists conversations newest first with unread counts, and the header shows the unread badge', async () => {
    openInbox('/inbox');
    const list = await screen.findByRole('navigation', { name: 'Conversations' });
    const items = within(list).getAllByRole('link');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Ann Lee.*Can I come at 4 instead\?2$/),
      expect.stringMatching(/^Bob Stone.*You: Thanks!$/),
    ]);
    expect(within(items[0]!).getByRole('status', { name: '2 unread' })).toBeInTheDocument();
    expect(await screen.findByTestId('inbox-badge')).toHaveTextContent('2 unread');
  });

  it('opens a conversation with each reply beside the alert it answered, and answers it', async () => {
    const { api, app } = openInbox(`/inbox/${ann.id}`, {
      [`POST /inbox/${ann.id}/reply`]: {
        status: 201,
        body: {
          success: true,
          data: makeMessage({ body: 'Sure, 4 works', status: 'queued' }),
          message: 'Your reply is on its way.',
        },
      },
    });
    const thread = await screen.findByRole('list', { name: 'Texts with Ann Lee' });
    expect(within(thread).getByText(/About:/)).toHaveTextContent(
      /About: Color · Jan 4, 3:00 pm EST · still open/,
    );
    const box = screen.getByLabelText('Your reply');
    await app.user.type(box, 'Sure, 4 works');
    await app.user.keyboard('{Enter}');
    await waitFor(() => expect(api.callsTo(`POST /inbox/${ann.id}/reply`)).toHaveLength(1));
    expect(api.callsTo(`POST /inbox/${ann.id}/reply`)[0]!.body).toEqual({ body: 'Sure, 4 works' });
    await waitFor(() => expect(screen.getByLabelText('Your reply')).toHaveValue(''));
  });

  it('Shift+Enter makes a new line instead of sending; an empty reply says what is missing', async () => {
    const { api, app } = openInbox(`/inbox/${ann.id}`);
    const box = await screen.findByLabelText('Your reply');
    await app.user.type(box, 'Line one{Shift>}{Enter}{/Shift}Line two');
    expect(box).toHaveValue('Line one\nLine two');
    await app.user.clear(box);
    await app.user.click(screen.getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByText('Message is required')).toBeInTheDocument();
    expect(api.callsTo(`POST /inbox/${ann.id}/reply`)).toHaveLength(0);
  });

  it('cannot answer a customer who opted out, and says why', async () => {
    openInbox(`/inbox/${bob.id}`);
    expect(await screen.findByText(/texted STOP and gets no texts/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Your reply')).not.toBeInTheDocument();
  });

  it('shows the server’s reason when the answer is refused', async () => {
    const { app } = openInbox(`/inbox/${ann.id}`, {
      [`POST /inbox/${ann.id}/reply`]: errorAnswer(403, 'Your text number is still being verified.'),
    });
    await app.user.type(await screen.findByLabelText('Your reply'), 'Hello');
    await app.user.click(screen.getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByText('Your text number is still being verified.')).toBeInTheDocument();
    expect(screen.getByLabelText('Your reply')).toHaveValue('Hello');
  });

  it('says what will appear when there are no replies yet', async () => {
    openInbox('/inbox', {
      'GET /inbox': { body: { success: true, data: [], nextCursor: null, timeZone: 'America/New_York' } },
    });
    expect(await screen.findByRole('heading', { name: 'No replies yet' })).toBeInTheDocument();
  });
});

describe('the inbox on a phone (issue 27)', () => {
  it('previews the customer’s last words, not the automatic answer that followed them', async () => {
    const asked: ConversationSummary = {
      customer: ann,
      lastMessage: {
        body: 'Thanks for your message! We will get back to you soon.',
        direction: 'out',
        createdAt: '2030-01-03T18:05:01.000Z',
      },
      lastReply: { body: 'what time?', createdAt: '2030-01-03T18:05:00.000Z' },
      unread: 1,
    };
    openInbox('/inbox', {
      'GET /inbox': {
        body: { success: true, data: [asked], nextCursor: null, timeZone: 'America/New_York' },
      },
    });
    const list = await screen.findByRole('navigation', { name: 'Conversations' });
    const [item] = within(list).getAllByRole('link');
    expect(item).toHaveTextContent(/what time\?1$/);
    expect(item).not.toHaveTextContent(/You:|Thanks for your message/);
  });

  it('opens a conversation at its newest message', async () => {
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
      scrolled.push(this);
    });
    openInbox(`/inbox/${ann.id}`);
    const thread = await screen.findByRole('list', { name: 'Texts with Ann Lee' });
    const bubbles = within(thread).getAllByRole('listitem');
    await waitFor(() => expect(scrolled).toContain(bubbles.at(-1)));
    expect(bubbles.at(-1)).toHaveTextContent('Can I come at 4 instead?');
  });

  it('shows no Shift+Enter hint on a touch screen, where Enter makes a new line', async () => {
    vi.stubGlobal(
      'matchMedia',
      vi.fn((query: string) => ({ matches: query.includes('pointer: coarse'), media: query })),
    );
    const { api, app } = openInbox(`/inbox/${ann.id}`);
    const box = await screen.findByLabelText('Your reply');
    expect(screen.queryByText(/Shift\+Enter/)).not.toBeInTheDocument();
    await app.user.type(box, 'Line one{Enter}Line two');
    expect(box).toHaveValue('Line one\nLine two');
    expect(api.callsTo(`POST /inbox/${ann.id}/reply`)).toHaveLength(0);
  });

  it('keeps the hint with a keyboard and mouse', async () => {
    openInbox(`/inbox/${ann.id}`);
    await screen.findByLabelText('Your reply');
    expect(screen.getByText('Enter sends · Shift+Enter for a new line')).toBeInTheDocument();
  });
});
