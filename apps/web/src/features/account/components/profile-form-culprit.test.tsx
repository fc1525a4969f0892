import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/fixtures.ts';
import { openAccount } from '../pages/account-page.test-helpers.tsx';

/** Issue 28: the business-details form names the character in the business name that forces UCS-2. */
describe('business name hint', () => {
  const businessName = () => screen.getByLabelText(/Business name/);

  it('names an emoji in the saved business name', async () => {
    await openAccount('/account', {}, () => makeUser({ businessName: 'Fade 💈 Bar' }));
    expect(await screen.findByText('‘💈’ makes every text 70 characters a segment.')).toBeInTheDocument();
  });

  it('appears as the owner types an emoji and goes when it is removed; accents GSM-7 holds say nothing', async () => {
    const { app } = await openAccount();
    expect(screen.queryByText(/makes every text 70 characters a segment/)).toBeNull();
    await app.user.clear(businessName());
    await app.user.type(businessName(), 'Peluquería Niño');
    // í is outside GSM-7: named; ñ alone would not be.
    expect(screen.getByText('‘í’ makes every text 70 characters a segment.')).toBeInTheDocument();
    await app.user.clear(businessName());
    await app.user.type(businessName(), 'Niño Café');
    expect(screen.queryByText(/makes every text 70 characters a segment/)).toBeNull();
    await app.user.type(businessName(), ' ✂');
    expect(screen.getByText('‘✂’ makes every text 70 characters a segment.')).toBeInTheDocument();
  });
});
