import { screen, waitFor, within } from '@testing-library/react';
import { offerMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/fixtures.ts';
import { mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { templatesAnswer, waitlistAnswer } from '../../../test/waitlist-fixtures.ts';

const dialog = () => screen.getByRole('dialog');

async function openImport(rows: object[]) {
  mockSignedIn(makeUser({ plivoNumberStatus: 'verified' }), {
    'GET /waitlist': waitlistAnswer({ customers: [] }),
    'GET /message-templates': templatesAnswer(),
    'POST /waitlist/import/preview': { body: { success: true, data: { rows, valid: 2, invalid: 1 } } },
  });
  const app = renderApp('/waitlist', { token: 'tok' });
  await screen.findByRole('heading', { level: 1, name: 'Waitlist' });
  await waitFor(() => expect(screen.queryByText('Loading your waitlist…')).not.toBeInTheDocument());
  await app.user.click(screen.getByRole('button', { name: 'Import CSV' }));
  return app;
}

describe('the CSV import names its columns and shows what each row got (issue 39)', () => {
  it('names the service and stylist columns in its help, and says names match whatever the punctuation', async () => {
    await openImport([]);
    const help = within(dialog()).getByText(/^Columns: name, phone/);
    expect(help).toHaveTextContent(/service, stylist \(or staff\) and language/);
    expect(help).toHaveTextContent(/“womens cut” is “Women’s cut”/);
  });

  it('shows each row’s service, stylist and language in the preview, and the question for a near miss', async () => {
    const nearMiss = offerMessages.didYouMean(offerMessages.unknownService('Blowot'), 'Blowout');
    const app = await openImport([
      {
        line: 2,
        name: 'Ava',
        phone: '+12125550101',
        error: null,
        service: "Women's cut",
        staff: 'Priya',
        language: 'es',
      },
      {
        line: 3,
        name: 'Bea',
        phone: '+12125550102',
        error: null,
        service: null,
        staff: null,
        language: 'en',
      },
      {
        line: 4,
        name: 'Cal',
        phone: '+12125550103',
        error: nearMiss,
        service: null,
        staff: null,
        language: 'en',
      },
    ]);
    await app.user.click(within(dialog()).getByLabelText('Or paste the CSV'));
    await app.user.paste('name,phone,service\nAva,2125550101,womens cut');
    await app.user.click(within(dialog()).getByRole('button', { name: 'Preview' }));
    const table = await within(dialog()).findByRole('table', { name: 'Import preview' });
    expect(
      within(table)
        .getAllByTestId('import-row-gets')
        .map((cell) => cell.textContent),
    ).toEqual(["Women's cut · with Priya · Spanish", 'Any service', '—']);
    expect(within(table).getByText('Unknown service: Blowot. Did you mean “Blowout”?')).toBeInTheDocument();
  });
});
