import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../lib/api-client.ts';
import { FormActions, KitForm, useFormKit } from './form-kit.tsx';
import { TextField } from './text-field.tsx';

const booking = z.object({
  name: z.string().trim().min(1, 'Enter a name.'),
  phone: z.string().trim().min(1, 'Enter a phone.'),
});

function BookingForm({ send }: { send: (values: z.output<typeof booking>) => Promise<unknown> }) {
  const { submit, field, kit } = useFormKit(booking, {
    defaultValues: { name: '', phone: '' },
    serverFields: ['name', 'phone'],
    failure: 'Could not book.',
  });
  return (
    <>
      <KitForm kit={kit} id="booking" label="Booking" onSubmit={submit(send)}>
        <TextField label="Name" {...field('name')} />
        <TextField label="Phone" {...field('phone')} />
      </KitForm>
      <FormActions kit={kit} formId="booking" submitLabel="Book" onCancel={() => {}} />
    </>
  );
}

let scrolled: { element: Element; options: ScrollIntoViewOptions | boolean | undefined }[];
const original = Element.prototype.scrollIntoView;

beforeEach(() => {
  scrolled = [];
  Element.prototype.scrollIntoView = vi.fn(function (
    this: Element,
    options?: ScrollIntoViewOptions | boolean,
  ) {
    scrolled.push({ element: this, options });
  });
});

afterEach(() => {
  Element.prototype.scrollIntoView = original;
  vi.unstubAllGlobals();
});

async function fillAndBook(
  send: (values: z.output<typeof booking>) => Promise<unknown>,
  { name = 'Ana', phone = '' }: { name?: string; phone?: string } = {},
) {
  const user = userEvent.setup();
  render(<BookingForm send={send} />);
  if (name) await user.type(screen.getByLabelText('Name'), name);
  if (phone) await user.type(screen.getByLabelText('Phone'), phone);
  await user.click(screen.getByRole('button', { name: 'Book' }));
}

describe('the form kit', () => {
  it('scrolls to the first field the schema refused, in reading order, and puts the cursor in it', async () => {
    const send = vi.fn(async () => {});
    await fillAndBook(send);
    const phone = screen.getByLabelText('Phone');
    await waitFor(() => expect(phone).toHaveFocus());
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(phone).toHaveAccessibleDescription('Enter a phone.');
    expect(scrolled.map((call) => call.element)).toEqual([phone]);
    expect(scrolled[0]?.options).toEqual({ block: 'center', behavior: 'smooth' });
    expect(send).not.toHaveBeenCalled();
    // Found before sending, the error is met by focus, not read out twice.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('jumps without the smooth scroll for an owner who asked for less motion', async () => {
    vi.stubGlobal(
      'matchMedia',
      vi.fn((query: string) => ({ matches: query.includes('reduced-motion'), media: query })),
    );
    await fillAndBook(
      vi.fn(async () => {}),
      { name: '' },
    );
    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveFocus());
    expect(scrolled[0]?.options).toEqual({ block: 'center', behavior: 'auto' });
  });

  it('puts a refusal that names a field beside that field, reads it out, and brings it into view', async () => {
    const message = 'That phone is already booked.';
    const send = vi.fn(async () => {
      throw new ApiError({ status: 409, message, serverMessage: message, errors: { phone: message } });
    });
    await fillAndBook(send, { phone: '2125550143' });

    const phone = screen.getByLabelText('Phone');
    await waitFor(() => expect(phone).toHaveFocus());
    expect(phone).toHaveAccessibleDescription(message);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(message);
    // Right under the phone, in the phone's own field, not at the top of the form.
    expect(alert.closest('.field')).toBe(phone.closest('.field'));
    expect(scrolled.map((call) => call.element)).toEqual([phone]);
    expect(screen.getByLabelText('Name')).toHaveValue('Ana');
  });

  it('shows a refusal that names no field beside the submit button, and keeps the busy state honest', async () => {
    let fail: (error: unknown) => void = () => {};
    const send = vi.fn(() => new Promise((_, reject) => (fail = reject)));
    await fillAndBook(send, { phone: '1' });
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Book' })).toHaveAttribute('aria-busy', 'true'),
    );
    fail(new ApiError({ status: 0, message: 'No connection. Try again.' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('No connection. Try again.');
    expect(screen.getByRole('form', { name: 'Booking' })).not.toContainElement(alert);
    const actions = alert.closest('.form-actions__error')?.parentElement as HTMLElement;
    expect(within(actions).getByRole('button', { name: 'Book' })).not.toHaveAttribute('aria-busy');
    expect(scrolled).toEqual([]);
  });

  it('falls back to the form’s own words when the server says nothing', async () => {
    await fillAndBook(
      vi.fn(async () => {
        throw new Error('boom');
      }),
      { phone: '1' },
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not book.');
  });
});
