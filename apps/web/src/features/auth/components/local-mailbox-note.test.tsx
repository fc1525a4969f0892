import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

const config = (localMailbox: boolean) => ({
  body: {
    success: true,
    googleClientId: null,
    facebookAppId: null,
    appleClientId: null,
    localMailbox,
    localPhone: false,
    billing: { provider: 'local', publishableKey: null, configured: true },
  },
});

// GET /config says whether the local mailbox stands in for email, never which provider is in use (issue 24).
describe('local mailbox note', () => {
  it('points to /dev/mailbox when the server says emails land in the local mailbox', async () => {
    mockApi({ 'GET /config': config(true) });
    renderApp('/forgot-password');
    const note = await screen.findByTestId('local-mailbox-note');
    expect(note).toHaveTextContent('open the dev mailbox at /dev/mailbox to read the reset link');
  });

  it('is absent when real email is configured', async () => {
    const api = mockApi({ 'GET /config': config(false) });
    renderApp('/forgot-password');
    await screen.findByRole('heading', { name: 'Forgot your password?' });
    await vi.waitFor(() => expect(api.callsTo('GET /config')).toHaveLength(1));
    expect(screen.queryByTestId('local-mailbox-note')).toBeNull();
  });
});
