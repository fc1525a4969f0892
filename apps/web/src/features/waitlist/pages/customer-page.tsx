import { type Customer, consentLabels } from '@waitlist/contract';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { isApiError, screenErrorMessage } from '../../../lib/api-client.ts';
import { useConversation } from '../api/conversation.ts';
import { useBusinessTimeZone } from '../api/get-time-zone.ts';
import { MessageBubble } from '../components/message-bubble.tsx';
import { describePreference } from '../components/preferences.ts';
import { SendTextDialog } from '../components/send-text-dialog.tsx';
import { CustomerStatusBadges } from '../components/status-badges.tsx';
import '../components/conversation.css';
import { displayPhone } from '../../../lib/phone-display.ts';

/** /waitlist/:id: one customer's texts in and out, with delivery status and reply keywords. */
export function CustomerPage() {
  const { id = '' } = useParams();
  const conversation = useConversation(id);
  const timeZone = useBusinessTimeZone().data;
  const [texting, setTexting] = useState(false);

  if (conversation.isPending) {
    return (
      <div className="page">
        <Skeleton lines={6} label="Loading the conversation" />
      </div>
    );
  }
  if (conversation.isError) {
    const missing = isApiError(conversation.error) && conversation.error.status === 404;
    return (
      <div className="page stack">
        <Link to="/waitlist" className="back-link">
          ← Waitlist
        </Link>
        <Alert>
          {missing
            ? 'This customer is not on your waitlist.'
            : screenErrorMessage(conversation.error, 'Failed to load the conversation.')}
        </Alert>
        {missing ? null : (
          <Button variant="secondary" onClick={() => conversation.refetch()}>
            Try again
          </Button>
        )}
      </div>
    );
  }

  const { customer, messages } = conversation.data;
  return (
    <div className="page conversation">
      <Link to="/waitlist" className="back-link">
        ← Waitlist
      </Link>
      <CustomerHeader customer={customer} />
      <div className="stack">
        {customer.optedOut ? (
          <Alert tone="warning" title="Opted out">
            {customer.name} texted STOP and gets no texts — not even cancellation alerts — until they text
            START.
          </Alert>
        ) : null}
        {messages.length === 0 ? (
          <Card>
            <p className="muted">No texts yet. Texts you send and their replies show up here.</p>
          </Card>
        ) : (
          <ol className="list-stack thread" aria-label={`Texts with ${customer.name}`}>
            {messages.map((message) => (
              <MessageBubble key={message.id} message={message} timeZone={timeZone} />
            ))}
          </ol>
        )}
        {customer.status === 'removed' ? null : (
          <div className="conversation__composer">
            <Button block onClick={() => setTexting(true)} disabled={customer.optedOut}>
              Send a text
            </Button>
          </div>
        )}
      </div>
      {texting ? <SendTextDialog customer={customer} onClose={() => setTexting(false)} /> : null}
    </div>
  );
}

function CustomerHeader({ customer }: { customer: Customer }) {
  return (
    <header className="split-header split-header--top conversation__header">
      <div>
        <h1 className="page__title">{customer.name}</h1>
        <p className="conversation__facts">
          <a href={`tel:${customer.phone}`}>{displayPhone(customer.phone)}</a>
          <CustomerStatusBadges customer={customer} />
        </p>
        <p className="conversation__facts">
          Consent: {consentLabels[customer.consentMethod]}
          {customer.preferences.length > 0
            ? ` · ${customer.preferences.map(describePreference).join(' · ')}`
            : ''}
        </p>
        {customer.notes ? <p className="conversation__facts">{customer.notes}</p> : null}
      </div>
    </header>
  );
}
