import { type ConversationSummary, type InboxMessage, inboxMessages } from '@waitlist/contract';
import type { ReactNode } from 'react';
import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { TextareaField } from '../../../components/ui/textarea-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { isApiError, screenErrorMessage } from '../../../lib/api-client.ts';
import { displayPhone } from '../../../lib/phone-display.ts';
import { useInbox, useInboxReply, useInboxThread } from '../api/inbox.ts';
import { MessageBubble, messageTime } from '../components/message-bubble.tsx';
import { SegmentMeter } from '../components/segment-meter.tsx';
import { CustomerStatusBadges } from '../components/status-badges.tsx';
import '../components/conversation.css';
import '../components/inbox.css';

/**
 * /inbox and /inbox/:id (issue 15): every conversation with a customer who replied, newest first, with
 * unread counts; one conversation beside the list on a wide screen, on its own page on a phone.
 */
export function InboxPage({ cancellations }: { cancellations?: ReactNode }) {
  const { id } = useParams();
  return (
    <div className={`page inbox${id ? ' inbox--thread-open' : ''}`}>
      <header className="inbox__header">
        <h1 className="page__title">Inbox</h1>
        <p className="page__lead">Replies from your customers. Answer them here; they get it as a text.</p>
      </header>
      {/* The calendar's cancellations waiting for a tap (issue 29), handed in by the router. */}
      {cancellations}
      <div className="inbox__layout">
        <ConversationList selected={id} />
        <section className="inbox__thread" aria-label="Conversation">
          {id ? (
            <Thread key={id} customerId={id} />
          ) : (
            <Card className="inbox__placeholder">
              <p className="muted">Choose a conversation to read it and answer.</p>
            </Card>
          )}
        </section>
      </div>
    </div>
  );
}

function ConversationList({ selected }: { selected: string | undefined }) {
  const inbox = useInbox();
  if (inbox.isPending) {
    return (
      <div className="inbox__list">
        <Skeleton lines={5} label="Loading your inbox" />
      </div>
    );
  }
  if (inbox.isError) {
    return (
      <div className="inbox__list stack">
        <Alert>{screenErrorMessage(inbox.error, inboxMessages.loadFailed)}</Alert>
        <Button variant="secondary" onClick={() => inbox.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (inbox.data.data.length === 0) {
    return (
      <Card className="inbox__list inbox__empty stack">
        <h2 className="card__title">No replies yet</h2>
        <p className="muted">
          When a customer answers one of your texts with anything but a yes (a question, “running late”), it
          shows up here and your phone is told. Claims and STOP replies are handled for you.
        </p>
        <Link to="/openings">Open a slot</Link>
      </Card>
    );
  }
  return (
    <nav className="inbox__list" aria-label="Conversations">
      <ul className="inbox__items">
        {inbox.data.data.map((conversation) => (
          <ConversationItem
            key={conversation.customer.id}
            conversation={conversation}
            timeZone={inbox.data.timeZone}
            current={conversation.customer.id === selected}
          />
        ))}
      </ul>
    </nav>
  );
}

function ConversationItem({
  conversation,
  timeZone,
  current,
}: {
  conversation: ConversationSummary;
  timeZone: string;
  current: boolean;
}) {
  const { customer, lastMessage, lastReply, unread } = conversation;
  return (
    <li>
      <Link
        to={`/inbox/${customer.id}`}
        className={`inbox__item${current ? ' inbox__item--current' : ''}${unread > 0 ? ' inbox__item--unread' : ''}`}
        aria-current={current ? 'page' : undefined}
      >
        <span className="inbox__item-top">
          <span className="inbox__item-name">{customer.name}</span>
          <time className="inbox__item-time" dateTime={lastMessage.createdAt}>
            {messageTime(lastMessage.createdAt, timeZone)}
          </time>
        </span>
        <span className="inbox__item-bottom">
          {/* The customer's own words (issue 27): "what time?", not the automatic answer after it. */}
          <span className="inbox__item-preview">
            {lastReply
              ? lastReply.body
              : `${lastMessage.direction === 'out' ? 'You: ' : ''}${lastMessage.body}`}
          </span>
          {unread > 0 ? (
            <span className="inbox__unread" role="status" aria-label={`${unread} unread`}>
              {unread}
            </span>
          ) : null}
        </span>
      </Link>
    </li>
  );
}

/** "About: Color · Tue, Nov 24, 3:00 PM EST · filled by them" */
function ReplyContext({ message, timeZone }: { message: InboxMessage; timeZone: string }) {
  const context = message.context;
  if (!context) return null;
  const outcome = context.won
    ? 'they got it'
    : context.status === 'open'
      ? 'still open'
      : context.status === 'filled'
        ? 'filled by another'
        : context.status;
  return (
    <p className="inbox__context">
      About: <Link to={`/openings/${context.openingId}`}>{context.service}</Link> ·{' '}
      {messageTime(context.startsAt, timeZone)} · {outcome}
    </p>
  );
}

function Thread({ customerId }: { customerId: string }) {
  const thread = useInboxThread(customerId);
  if (thread.isPending) return <Skeleton lines={6} label="Loading the conversation" />;
  if (thread.isError) {
    const missing = isApiError(thread.error) && thread.error.status === 404;
    return (
      <div className="stack">
        <Link to="/inbox" className="inbox__back">
          ← Inbox
        </Link>
        <Alert>
          {missing
            ? 'This customer is not on your waitlist.'
            : screenErrorMessage(thread.error, 'Failed to load the conversation.')}
        </Alert>
      </div>
    );
  }
  const { customer, data: messages, timeZone } = thread.data;
  return (
    <div className="inbox__conversation stack">
      <Link to="/inbox" className="inbox__back">
        ← Inbox
      </Link>
      <header className="conversation__header">
        <div>
          <h2 className="card__title">
            <Link to={`/waitlist/${customer.id}`}>{customer.name}</Link>
          </h2>
          <p className="conversation__facts">
            <a href={`tel:${customer.phone}`}>{displayPhone(customer.phone)}</a>
            <CustomerStatusBadges customer={customer} />
          </p>
        </div>
      </header>
      <ThreadMessages name={customer.name} messages={messages} timeZone={timeZone} />
      {customer.optedOut ? (
        <Alert tone="warning" title="Opted out">
          {customer.name} texted STOP and gets no texts until they text START, so you cannot answer here.
        </Alert>
      ) : customer.status === 'removed' ? (
        <p className="muted">{customer.name} was removed from your waitlist.</p>
      ) : (
        <ReplyForm customerId={customer.id} name={customer.name} />
      )}
    </div>
  );
}

/** The texts, oldest first; the conversation opens at the newest, where the owner answers (issue 27). */
function ThreadMessages({
  name,
  messages,
  timeZone,
}: {
  name: string;
  messages: InboxMessage[];
  timeZone: string;
}) {
  const listRef = useRef<HTMLOListElement>(null);
  // Once, when the conversation first shows: later polls must not pull the owner away from older texts.
  useEffect(() => {
    listRef.current?.lastElementChild?.scrollIntoView?.({ block: 'end' });
  }, []);
  return (
    <ol ref={listRef} className="list-stack thread" aria-label={`Texts with ${name}`}>
      {messages.map((message) => (
        <MessageBubble key={message.id} message={message} timeZone={timeZone}>
          <ReplyContext message={message} timeZone={timeZone} />
        </MessageBubble>
      ))}
    </ol>
  );
}

/** A touch screen has no Shift+Enter: there Enter makes a new line and the button sends. */
const TOUCH_QUERY = '(hover: none), (pointer: coarse)';
const isTouchScreen = () => typeof window.matchMedia === 'function' && window.matchMedia(TOUCH_QUERY).matches;

function ReplyForm({ customerId, name }: { customerId: string; name: string }) {
  const reply = useInboxReply(customerId);
  const toast = useToast();
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const meterId = useId();
  const [touch] = useState(isTouchScreen);

  const send = async () => {
    if (!body.trim()) {
      setError('Message is required');
      return;
    }
    setError(null);
    try {
      const answer = await reply.mutateAsync(body.trim());
      setBody('');
      toast.success(answer.message);
    } catch (failure) {
      setError(screenErrorMessage(failure, inboxMessages.sendFailed));
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };
  // With a keyboard, Enter sends and Shift+Enter starts a new line.
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!touch && event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <form className="inbox__composer stack" onSubmit={onSubmit} noValidate aria-label={`Reply to ${name}`}>
      <TextareaField
        label="Your reply"
        rows={3}
        value={body}
        onChange={(event) => setBody(event.target.value)}
        onKeyDown={onKeyDown}
        error={error ?? undefined}
        hint={touch ? undefined : 'Enter sends · Shift+Enter for a new line'}
        aria-describedby={meterId}
      />
      <SegmentMeter id={meterId} text={body} />
      <div className="form__actions">
        <Button type="submit" busy={reply.isPending}>
          Send reply
        </Button>
      </div>
    </form>
  );
}
