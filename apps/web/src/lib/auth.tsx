import { useQuery, useQueryClient } from '@tanstack/react-query';
import { authMessages, type User } from '@waitlist/contract';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { apiRequest, isApiError, setUnauthorizedHandler, tokenStorage } from './api-client.ts';
import { socialUserDataStorage } from './social-user-data.ts';

export const currentUserQueryKey = ['auth', 'me'] as const;

type MeResponse = { success: true; data: User };

export async function fetchCurrentUser(signal?: AbortSignal): Promise<User> {
  const answer = await apiRequest<MeResponse>('/auth/me', {
    defaultMessage: authMessages.failedToGetUserData,
    signal,
  });
  return answer.data;
}

export type AuthStatus = 'loading' | 'authenticated' | 'anonymous';

type AuthContextValue = {
  status: AuthStatus;
  user: User | null;
  /** After login, register or a password change: keep the token and the user it belongs to. */
  signIn: (token: string, user: User) => void;
  /** Replace the known user (e.g. the answer of verify-account). */
  setUser: (user: User) => void;
  /** Fetch the user again from the server (after a change the server derived state from). */
  refreshUser: () => Promise<void>;
  /** Replace the token only (password change hands out a fresh one). */
  replaceToken: (token: string) => void;
  logout: () => Promise<void>;
};

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(() => tokenStorage.get());

  const me = useQuery({
    queryKey: currentUserQueryKey,
    queryFn: ({ signal }) => fetchCurrentUser(signal),
    enabled: token !== null,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

  const forgetSession = useCallback(() => {
    tokenStorage.clear();
    socialUserDataStorage.clear();
    setToken(null);
    queryClient.clear();
  }, [queryClient]);

  // SPEC §4: the current user could not be fetched, so the stored token is no good.
  // Offline (no answer at all, status 0) says nothing about the token: it is kept for when the network is back.
  useEffect(() => {
    const offline = isApiError(me.error) && me.error.status === 0;
    if (token !== null && me.isError && !offline) forgetSession();
  }, [token, me.isError, me.error, forgetSession]);

  useEffect(() => {
    setUnauthorizedHandler(forgetSession);
    return () => setUnauthorizedHandler(null);
  }, [forgetSession]);

  const signIn = useCallback(
    (newToken: string, user: User) => {
      tokenStorage.set(newToken);
      queryClient.setQueryData(currentUserQueryKey, user);
      setToken(newToken);
    },
    [queryClient],
  );

  const setUser = useCallback(
    (user: User) => queryClient.setQueryData(currentUserQueryKey, user),
    [queryClient],
  );

  const refreshUser = useCallback(async () => {
    await queryClient.refetchQueries({ queryKey: currentUserQueryKey, exact: true });
  }, [queryClient]);

  const replaceToken = useCallback((newToken: string) => {
    tokenStorage.set(newToken);
    setToken(newToken);
  }, []);

  const logout = useCallback(async () => {
    try {
      await apiRequest('/auth/logout', { method: 'POST', defaultMessage: authMessages.loggedOut });
    } catch {
      // Logging out locally must work even when the server cannot be reached.
    }
    forgetSession();
  }, [forgetSession]);

  const user = token !== null ? (me.data ?? null) : null;
  const status: AuthStatus = token === null || me.isError ? 'anonymous' : user ? 'authenticated' : 'loading';

  const value = useMemo<AuthContextValue>(
    () => ({ status, user, signIn, setUser, refreshUser, replaceToken, logout }),
    [status, user, signIn, setUser, refreshUser, replaceToken, logout],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}

/** For screens that only render behind a login guard. */
export function useCurrentUser(): User {
  const { user } = useAuth();
  if (!user) throw new Error('useCurrentUser needs a logged-in user (render it behind a guard)');
  return user;
}
