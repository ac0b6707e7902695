import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { ConsoleApiError, postJson } from '../../services/console-api';
import { useSession } from '../../services/console-session';
import { describeError } from '../../components/describe-error';
import { AuthFrame } from '../auth-shared/auth-frame';
import { TotpCodeForm } from '../auth-shared/totp-code-form';

interface SignInAnswer {
  twoFactorRedirect?: boolean;
}

/** Where to go once signed in: the page that sent the reader here, if it was one of the console's. */
function targetOf(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') && !from.startsWith('/login') ? from : '/';
}

/**
 * Sign in (better-auth): e-mail and password, then, for an account with its second factor on,
 * the six-digit code of the authenticator app. Then the console, or the page asked for.
 */
export function LoginScreen() {
  const { t, i18n } = useLingui();
  const { session, refresh } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [step, setStep] = useState<'password' | 'code'>('password');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const target = targetOf(location.state);

  if (session.status === 'signed-in' && session.me.two_factor_enabled && !busy) return <Navigate to={target} replace />;

  const failure = (caught: unknown, wrong: string) => {
    if (caught instanceof ConsoleApiError && caught.status === 429) return t`Too many attempts, try again in a few minutes`;
    if (caught instanceof ConsoleApiError && caught.code === 'code_used') return t`This code was used already. Wait for the next code in your app.`;
    if (caught instanceof ConsoleApiError && [400, 401].includes(caught.status)) return wrong;
    const text = describeError(i18n, caught);
    return text.detail ? `${text.heading} ${text.detail}` : text.heading;
  };

  const enter = async () => {
    const me = await refresh();
    if (me) void navigate(me.two_factor_enabled ? target : '/two-factor', { replace: true });
    else setError(t`You are signed in, but the session could not be read. Reload the page.`);
  };

  const signIn = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await postJson<SignInAnswer>('/auth/sign-in/email', { email: email.trim(), password });
      if (answer?.twoFactorRedirect) setStep('code');
      else await enter();
    } catch (caught) {
      setError(failure(caught, t`Wrong e-mail or password.`));
    } finally {
      setBusy(false);
    }
  };

  const verify = async (code: string) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await postJson('/auth/two-factor/verify-totp', { code });
      await enter();
    } catch (caught) {
      setError(failure(caught, t`Wrong code. Check your authenticator app and try again.`));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthFrame title={t`Sign in`}>
      {step === 'password' ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void signIn();
          }}
        >
          <Stack>
            {error && (
              <Alert color="red" variant="light" role="alert" data-testid="login-error">
                {error}
              </Alert>
            )}
            <TextInput label={t`E-mail`} type="email" autoComplete="username" value={email} onChange={(event) => setEmail(event.currentTarget.value)} required dir="ltr" data-testid="login-email" />
            <PasswordInput
              label={t`Password`}
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              required
              visibilityToggleButtonProps={{ 'aria-label': t`Show or hide what you typed` }}
              data-testid="login-password"
            />
            <Button type="submit" loading={busy} disabled={busy} data-testid="login-submit">
              <Trans>Sign in</Trans>
            </Button>
          </Stack>
        </form>
      ) : (
        <Stack>
          <Text>
            <Trans>Enter the code from your authenticator app to finish signing in.</Trans>
          </Text>
          <TotpCodeForm busy={busy} error={error} onSubmit={(code) => void verify(code)} />
          <Button
            variant="subtle"
            onClick={() => {
              setStep('password');
              setError(null);
            }}
          >
            <Trans>Back</Trans>
          </Button>
        </Stack>
      )}
    </AuthFrame>
  );
}
