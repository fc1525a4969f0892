import { screen, waitFor, within } from '@testing-library/react';
import { customerWords, messageTemplateKeys, waitlistMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/fixtures.ts';
import { mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { makeCustomer, waitlistAnswer } from '../../../test/waitlist-fixtures.ts';

/** Issue 28: each template in English and Spanish, counted both ways, and the plain-letters setting. */
const bothLanguages = (spanish: Partial<Record<string, string>> = {}) => ({
  body: {
    success: true,
    data: (['en', 'es'] as const).flatMap((language) =>
      messageTemplateKeys.map((key) => ({
        key,
        language,
        body: (language === 'es' ? spanish[key] : undefined) ?? customerWords(language).templates[key],
        isDefault: language === 'en' || !spanish[key],
      })),
    ),
  },
});

const failNextSave = { current: false };

async function openTemplates({ plain = false, businessName = 'Bella Salon', spanish = {} } = {}) {
  let plainSetting = plain;
  const api = mockSignedIn(makeUser({ businessName }), {
    'GET /waitlist': waitlistAnswer({ customers: [makeCustomer({ name: 'Ana' })] }),
    'GET /message-templates': bothLanguages(spanish),
    'PUT /message-templates/cancellation_alert': ({ body }) => ({
      body: {
        success: true,
        data: { key: 'cancellation_alert', isDefault: false, ...(body as object) },
        message: waitlistMessages.templateUpdated,
      },
    }),
    'GET /settings/plain-letters': () => ({
      body: { success: true, data: { plainSpanishLetters: plainSetting } },
    }),
    'PUT /settings/plain-letters': ({ body }) => {
      if (failNextSave.current) {
        failNextSave.current = false;
        return { status: 503, body: { success: false, message: 'The server is resting' } };
      }
      plainSetting = (body as { plainSpanishLetters: boolean }).plainSpanishLetters;
      return {
        body: {
          success: true,
          data: { plainSpanishLetters: plainSetting },
          message: waitlistMessages.plainLettersUpdated,
        },
      };
    },
  });
  const app = renderApp('/waitlist', { token: 'tok' });
  await app.user.click(await screen.findByRole('button', { name: 'Message templates' }));
  const dialog = screen.getByRole('dialog', { name: 'Message templates' });
  const alert = await within(dialog).findByRole('region', { name: 'Cancellation alert' });
  const spanishTab = within(alert).getByRole('tab', { name: 'Español' });
  return { app, api, dialog, alert, spanishTab };
}

describe('templates in English and Spanish (issue 28)', () => {
  it('switches a template to its Spanish version, pre-filled from the catalogue, and saves it in Spanish', async () => {
    const { app, api, alert, spanishTab } = await openTemplates();
    const english = within(alert).getByRole('form', { name: 'Cancellation alert' });
    expect(within(english).getByLabelText('Cancellation alert')).toHaveValue(
      customerWords('en').templates.cancellation_alert,
    );
    expect(spanishTab).toHaveAttribute('aria-selected', 'false');

    await app.user.click(spanishTab);
    expect(spanishTab).toHaveAttribute('aria-selected', 'true');
    expect(english).not.toBeVisible();
    const spanish = within(alert).getByRole('form', { name: 'Cancellation alert (Español)' });
    const field = within(spanish).getByLabelText('Cancellation alert (Español)');
    expect(field).toHaveValue(customerWords('es').templates.cancellation_alert);

    await app.user.clear(field);
    await app.user.type(field, '¡Hola {{name}! Hay un hueco {{time}. Responde SÍ.');
    await app.user.click(
      within(spanish).getByRole('button', { name: /Save cancellation alert \(Español\)/ }),
    );
    await waitFor(() => expect(api.callsTo('PUT /message-templates/cancellation_alert')).toHaveLength(1));
    expect(api.callsTo('PUT /message-templates/cancellation_alert')[0]!.body).toEqual({
      body: '¡Hola {name}! Hay un hueco {time}. Responde SÍ.',
      language: 'es',
    });
  });

  it('counts a Spanish text both ways when an accent forces UCS-2, and as sent with plain letters on', async () => {
    const { app, alert, spanishTab } = await openTemplates();
    await app.user.click(spanishTab);
    const spanish = within(alert).getByRole('form', { name: 'Cancellation alert (Español)' });
    // The default Spanish alert (GSM-7 words since issue 39) with the sample name, time and opt-out line: the
    // sample service ("hidratación") alone makes it UCS-2.
    expect(within(spanish).getByTestId('both-ways')).toHaveTextContent(
      '3 segments (UCS-2: ‘ó’) · 2 with plain letters',
    );
    expect(within(spanish).getByTestId('segment-meter')).toHaveTextContent('UCS-2');
    expect(within(spanish).getByTestId('ucs2-culprit')).toHaveTextContent(
      'The ‘ó’ in the sample time and service makes it use the 70-character encoding.',
    );

    // Without an accent in the owner's words, the sample service ("hidratación") still forces UCS-2, and
    // the hint says that is where it comes from.
    const field = within(spanish).getByLabelText('Cancellation alert (Español)');
    await app.user.clear(field);
    await app.user.type(field, 'Hola {{name}, ¿te sirve {{time}? Responde SI.');
    expect(within(spanish).getByTestId('both-ways')).toHaveTextContent(
      '3 segments (UCS-2: ‘ó’) · 1 with plain letters',
    );
    expect(within(spanish).getByTestId('ucs2-culprit')).toHaveTextContent(
      'The ‘ó’ in the sample time and service makes it use the 70-character encoding.',
    );
    // An English text has one way to count.
    await app.user.click(within(alert).getByRole('tab', { name: 'English' }));
    const english = within(alert).getByRole('form', { name: 'Cancellation alert' });
    expect(within(english).queryByTestId('both-ways')).toBeNull();
    expect(within(english).getByTestId('segment-meter')).toHaveTextContent('GSM-7');
  });

  it('binds the plain-letters checkbox to the business setting, and counts Spanish texts as sent', async () => {
    const { app, api, dialog, alert, spanishTab } = await openTemplates();
    const checkbox = within(dialog).getByLabelText(
      'Write Spanish texts with plain letters (á → a) to keep them in one encoding',
    );
    await waitFor(() => expect(checkbox).toBeEnabled());
    expect(checkbox).not.toBeChecked();
    await app.user.click(checkbox);
    await waitFor(() => expect(checkbox).toBeChecked());
    expect(api.callsTo('PUT /settings/plain-letters')[0]!.body).toEqual({ plainSpanishLetters: true });
    expect(await screen.findByText(waitlistMessages.plainLettersUpdated)).toBeInTheDocument();

    await app.user.click(spanishTab);
    const spanish = within(alert).getByRole('form', { name: 'Cancellation alert (Español)' });
    expect(within(spanish).getByTestId('segment-meter')).toHaveTextContent('2 segments');
    expect(within(spanish).getByTestId('segment-meter')).toHaveTextContent('GSM-7');
    // Still shown both ways, so the owner sees what plain letters save.
    expect(within(spanish).getByTestId('both-ways')).toHaveTextContent(
      '3 segments (UCS-2: ‘ó’) · 2 with plain letters',
    );
    expect(within(spanish).queryByTestId('ucs2-culprit')).toBeNull();
  });

  it('names the character that forces UCS-2: an emoji in the text or in the business name', async () => {
    const { app, alert } = await openTemplates({ businessName: 'Bella 💈 Salon' });
    const english = within(alert).getByRole('form', { name: 'Cancellation alert' });
    expect(within(english).getByTestId('ucs2-culprit')).toHaveTextContent(
      'The ‘💈’ in your business name makes it use the 70-character encoding.',
    );
    const field = within(english).getByLabelText('Cancellation alert');
    await app.user.clear(field);
    await app.user.type(field, 'Hi {{name} ✂ a slot opened {{time}');
    expect(within(english).getByTestId('ucs2-culprit')).toHaveTextContent(
      'The ‘✂’ in your text makes it use the 70-character encoding.',
    );
  });
});

describe('plain letters that would not help, or could not be saved', () => {
  it('puts the box back and says so when the setting is not saved', async () => {
    const { app, api, dialog } = await openTemplates();
    const checkbox = within(dialog).getByLabelText(/Write Spanish texts with plain letters/);
    await waitFor(() => expect(checkbox).toBeEnabled());
    failNextSave.current = true;
    await app.user.click(checkbox);
    await waitFor(() => expect(api.callsTo('PUT /settings/plain-letters')).toHaveLength(1));
    expect(await screen.findByText('The server is resting')).toBeInTheDocument();
    expect(checkbox).not.toBeChecked();
  });

  it('does not count a Spanish text both ways when an emoji in the business name keeps it UCS-2', async () => {
    const { app, alert, spanishTab } = await openTemplates({ businessName: 'Fade 💈 Bar', plain: true });
    await app.user.click(spanishTab);
    const spanish = within(alert).getByRole('form', { name: 'Cancellation alert (Español)' });
    // With the setting loaded, the accents are gone from what is sent and the emoji is what is left.
    await waitFor(() =>
      expect(within(spanish).getByTestId('ucs2-culprit')).toHaveTextContent(
        'The ‘💈’ in your business name makes it use the 70-character encoding.',
      ),
    );
    expect(within(spanish).queryByTestId('both-ways')).toBeNull();
  });
});

describe('the cost of each template in money (issue 39)', () => {
  it('shows a text’s price and an alert’s price from the configured segment price, beside the segments', async () => {
    const { alert } = await openTemplates();
    const english = within(alert).getByRole('form', { name: 'Cancellation alert' });
    // The sample (a long service) makes 2 segments; one waiting customer (Ana): one alert costs one text.
    await waitFor(() =>
      expect(within(english).getByTestId('text-money')).toHaveTextContent(
        /^One text ≈ \$0\.0158 \(2 segments × \$0\.0079\) · one alert ≈ \$0\.0158$/,
      ),
    );
  });
});
