import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { postJson } from '../../services/console-api';
import { useSession } from '../../services/console-session';
import { describeError, type ErrorText } from '../../components/describe-error';
import { AuthFrame } from '../auth-shared/auth-frame';
import { NewPasswordForm } from '../auth-shared/new-password-form';
import { TotpEnrolment, type Enrolment } from '../auth-shared/totp-enrolment';

/**
 * A new account's one-time link (`npm run broker -- users add`): the account chooses its
 * password (POST /setup answers its e-mail), is signed in with it, and sets up its second factor
 * (two-factor/enable with the same password, then the app's first code). Then the console.
 */
export function SetupScreen() {
  const { t, i18n } = useLingui();
  const { refresh } = useSession();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorText | null>(null);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);

  const setUp = async (password: string) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const { email } = await postJson<{ email: string }>('/setup', { token, password });
      const signIn = await postJson<{ twoFactorRedirect?: boolean }>('/auth/sign-in/email', { email, password });
      if (signIn?.twoFactorRedirect) {
        setError({ heading: t`This account has its authenticator app set up already. Sign in instead.`, detail: null });
        return;
      }
      await refresh();
      setEnrolment(await postJson<Enrolment>('/auth/two-factor/enable', { password }));
    } catch (caught) {
      setError(describeError(i18n, caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthFrame title={t`Set up your account`}>
      {!token ? (
        <Alert color="red" variant="light" role="alert">
          <Trans>This page needs the setup link you were sent. Ask an admin for a new one.</Trans>
        </Alert>
      ) : enrolment ? (
        <TotpEnrolment enrolment={enrolment} />
      ) : (
        <Stack>
          <Text>
            <Trans>Choose your password. Next, you will set up an authenticator app on your phone: the console asks for its code at every sign-in.</Trans>
          </Text>
          {error && (
            <Alert color="red" variant="light" role="alert" title={error.heading} data-testid="setup-error">
              {error.detail}
            </Alert>
          )}
          <NewPasswordForm busy={busy} onSubmit={(password) => void setUp(password)} />
        </Stack>
      )}
    </AuthFrame>
  );
}
