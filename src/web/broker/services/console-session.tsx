import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { ConsoleMe } from '../../../contract/broker-console';
import { ConsoleApiError, configureConsoleApi, getJson, rememberCsrfToken } from './console-api';

/**
 * Who is signed in (GET /broker/api/me), for every screen: not asked yet, loading, signed out,
 * or the account with its role, second factor and CSRF token. A 401 anywhere ends the session
 * here, and the shell sends the reader to the sign-in screen.
 */
export type SessionState =
  | { status: 'unknown' }
  | { status: 'loading' }
  | { status: 'signed-out' }
  | { status: 'signed-in'; me: ConsoleMe }
  | { status: 'failed'; error: Error };

interface SessionValue {
  session: SessionState;
  /** Reads /me again (after signing in or setting up the second factor); answers who is signed in now. */
  refresh: () => Promise<ConsoleMe | null>;
  /** Forgets the session (after signing out). */
  signedOut: () => void;
}

const SessionContext = createContext<SessionValue | null>(null);

async function readMe(): Promise<SessionState> {
  try {
    const me = await getJson<ConsoleMe>('/me');
    rememberCsrfToken(me.csrf_token);
    return { status: 'signed-in', me };
  } catch (error) {
    rememberCsrfToken(null);
    if (error instanceof ConsoleApiError && error.status === 401) return { status: 'signed-out' };
    return { status: 'failed', error: error instanceof Error ? error : new Error(String(error)) };
  }
}

export function SessionProvider({ children }: { children: ReactNode }) {
  // Not read until a screen needs it: the sign-in and setup screens do not, so they ask nothing
  // that answers 401 (which the browser would log as a failed request).
  const [session, setSession] = useState<SessionState>({ status: 'unknown' });

  const signedOut = useCallback(() => {
    rememberCsrfToken(null);
    setSession({ status: 'signed-out' });
  }, []);

  const refresh = useCallback(async () => {
    const next = await readMe();
    setSession(next);
    return next.status === 'signed-in' ? next.me : null;
  }, []);

  useEffect(() => configureConsoleApi({ onSignedOut: signedOut }), [signedOut]);

  const value = useMemo(() => ({ session, refresh, signedOut }), [session, refresh, signedOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The signed-in account; only under the shell, which renders nothing else until there is one. */
export function useMe(): ConsoleMe {
  const { session } = useSession();
  if (session.status !== 'signed-in') throw new Error('useMe without a signed-in session');
  return session.me;
}

/**
 * The session, read from the server the first time a screen that needs one asks (the shell, the
 * second-factor step); until the answer it is 'unknown' or 'loading'.
 */
export function useRequiredSession(): SessionValue {
  const value = useSession();
  const { session, refresh } = value;
  useEffect(() => {
    if (session.status === 'unknown') void refresh();
  }, [session.status, refresh]);
  return value;
}
