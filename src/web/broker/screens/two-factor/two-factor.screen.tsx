import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Navigate } from 'react-router-dom';
import { ConsoleApiError, postJson } from '../../services/console-api';
import { useRequiredSession } from '../../services/console-session';
import { PageLoader } from '../../components/data-view';
import { describeError } from '../../components/describe-error';
import { AuthFrame } from '../auth-shared/auth-frame';
import { TotpEnrolment, type Enrolment } from '../auth-shared/totp-enrolment';

/**
 * The second factor for a signed-in account that has none yet (it left the setup before the
 * end): its password again, which two-factor/enable asks for, then the QR code and first code.
 */
export function TwoFactorScreen() {
  const { t, i18n } = useLingui();
  const { session } = useRequiredSession();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);

  if (session.status === 'unknown' || session.status === 'loading') return <PageLoader />;
  if (session.status !== 'signed-in') return <Navigate to="/login" replace />;
  if (session.me.two_factor_enabled) return <Navigate to="/" replace />;

  const enable = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      setEnrolment(await postJson<Enrolment>('/auth/two-factor/enable', { password }));
    } catch (caught) {
      if (caught instanceof ConsoleApiError && [400, 401].includes(caught.status)) setError(t`Wrong password.`);
      else if (caught instanceof ConsoleApiError && caught.status === 429) setError(t`Too many attempts, try again in a few minutes`);
      else setError(describeError(i18n, caught).heading);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthFrame title={t`Set up your authenticator app`}>
      {enrolment ? (
        <TotpEnrolment enrolment={enrolment} />
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void enable();
          }}
        >
          <Stack>
            <Text>
              <Trans>Your account needs an authenticator app before it can use the console. Enter your password to start.</Trans>
            </Text>
            {error && (
              <Alert color="red" variant="light" role="alert">
                {error}
              </Alert>
            )}
            <PasswordInput
              label={t`Password`}
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              visibilityToggleButtonProps={{ 'aria-label': t`Show or hide what you typed` }}
              required
              data-testid="two-factor-password"
            />
            <Button type="submit" loading={busy} disabled={busy}>
              <Trans>Continue</Trans>
            </Button>
          </Stack>
        </form>
      )}
    </AuthFrame>
  );
}
