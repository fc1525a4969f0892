import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../test/fixtures.ts';
import { mockApi } from '../test/mock-api.ts';
import { renderApp } from '../test/render-app.tsx';

/**
 * Decision 0015 (1): the stored token is cleared by any answer that says it is no good, but kept when the
 * server cannot be reached at all (offline, a deploy): the owner's own network does not log them out.
 */
describe('the stored token on load', () => {
  it('is kept when GET /auth/me gets no answer at all', async () => {
    const api = mockApi({ 'GET /auth/me': 'network-error' });
    renderApp('/account', { token: 'tok' });
    await waitFor(() => expect(api.callsTo('GET /auth/me').length).toBeGreaterThan(0));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(localStorage.getItem('token')).toBe('tok');
  });

  it('is cleared by an error answer, and the visitor goes to log in (SPEC §4)', async () => {
    mockApi({ 'GET /auth/me': { status: 500, body: { success: false, message: 'Server error' } } });
    renderApp('/account', { token: 'tok' });
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('is cleared by success false', async () => {
    mockApi({ 'GET /auth/me': { body: { success: false, data: makeUser() } } });
    renderApp('/account', { token: 'tok' });
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
  });
});
