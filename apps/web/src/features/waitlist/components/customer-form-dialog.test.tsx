import { screen, waitFor, within } from '@testing-library/react';
import { waitlistMessages } from '@waitlist/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import { type MockAnswer, mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { makeCustomer, templatesAnswer, waitlistAnswer } from '../../../test/waitlist-fixtures.ts';

let scrolledTo: Element[];
const original = Element.prototype.scrollIntoView;

beforeEach(() => {
  scrolledTo = [];
  Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
    scrolledTo.push(this);
  });
});
afterEach(() => {
  Element.prototype.scrollIntoView = original;
});

async function openAddCustomer(handlers: Record<string, MockAnswer> = {}) {
  const api = mockSignedIn(makeUser({ plivoNumberStatus: 'verified' }), {
    'GET /waitlist': waitlistAnswer({ customers: [makeCustomer()] }),
    'GET /message-templates': templatesAnswer(),
    ...handlers,
  });
  const app = renderApp('/waitlist', { token: 'tok' });
  await screen.findByRole('heading', { level: 1, name: 'Waitlist' });
  await app.user.click(await screen.findByRole('button', { name: 'Add customer' }));
  return { app, api, form: screen.getByRole('form', { name: 'Add a customer' }) };
}

describe('the customer dialog on a scrolled phone (issue 39)', () => {
  it('shows a duplicate phone beside the phone field, scrolls to it and puts the cursor there', async () => {
    const message = waitlistMessages.duplicatePhone('(212) 555-0143');
    const { app, form } = await openAddCustomer({
      'POST /waitlist': errorAnswer(409, message, { phone: message }),
    });
    await app.user.type(within(form).getByLabelText('Name'), 'Maria again');
    const phone = within(form).getByLabelText('Mobile phone');
    await app.user.type(phone, '2125550143');
    await app.user.selectOptions(within(form).getByLabelText('How did they agree to texts?'), 'verbal');
    await app.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Add to waitlist' }));

    await waitFor(() => expect(phone).toHaveFocus());
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(phone).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(scrolledTo).toEqual([phone]);
    // Said once, under the phone, and read out: no copy of it at the top of the form.
    const alert = within(screen.getByRole('dialog')).getByRole('alert');
    expect(alert).toHaveTextContent(message);
    expect(alert.closest('.field')).toBe(phone.closest('.field'));
    expect(within(form).getAllByText(message)).toHaveLength(1);
  });

  it('scrolls to the first field the form refused and focuses it, before sending anything', async () => {
    const { app, api, form } = await openAddCustomer();
    await app.user.type(within(form).getByLabelText('Name'), 'Maria Lopez');
    await app.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Add to waitlist' }));

    const phone = within(form).getByLabelText('Mobile phone');
    await waitFor(() => expect(phone).toHaveFocus());
    expect(phone).toHaveAccessibleDescription(expect.stringContaining(waitlistMessages.phoneRequired));
    expect(within(form).getByLabelText('How did they agree to texts?')).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(scrolledTo).toEqual([phone]);
    expect(api.callsTo('POST /waitlist')).toHaveLength(0);
  });

  it('shows a refusal that names no field next to the submit button', async () => {
    const { app, form } = await openAddCustomer({
      'POST /waitlist': errorAnswer(400, 'Your waitlist is paused.'),
    });
    await app.user.type(within(form).getByLabelText('Name'), 'Maria Lopez');
    await app.user.type(within(form).getByLabelText('Mobile phone'), '2125550143');
    await app.user.selectOptions(within(form).getByLabelText('How did they agree to texts?'), 'verbal');
    const submit = within(screen.getByRole('dialog')).getByRole('button', { name: 'Add to waitlist' });
    await app.user.click(submit);

    const alert = await within(screen.getByRole('dialog')).findByRole('alert');
    expect(alert).toHaveTextContent('Your waitlist is paused.');
    expect(form).not.toContainElement(alert);
    expect(alert.closest('.modal__footer')).toContainElement(submit);
  });
});
