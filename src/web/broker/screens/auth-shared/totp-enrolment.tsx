import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Code, CopyButton, Image, List, Stack, Text, Title } from '@mantine/core';
import { toDataURL } from 'qrcode';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ConsoleApiError, postJson } from '../../services/console-api';
import { useSession } from '../../services/console-session';
import { describeError } from '../../components/describe-error';
import { TotpCodeForm } from './totp-code-form';

export interface Enrolment {
  totpURI: string;
  backupCodes: string[];
}

/** The secret of an otpauth:// URI, for typing it into an app by hand; null when it has none. */
export function secretOf(totpURI: string): string | null {
  try {
    return new URL(totpURI).searchParams.get('secret');
  } catch {
    return null;
  }
}

/**
 * The second factor's setup once better-auth made its secret (two-factor/enable): the QR code,
 * the secret for typing by hand, the backup codes to keep, then the app's first code
 * (two-factor/verify-totp), which turns the factor on. Then the console.
 */
export function TotpEnrolment({ enrolment }: { enrolment: Enrolment }) {
  const { t, i18n } = useLingui();
  const { refresh } = useSession();
  const navigate = useNavigate();
  const [qr, setQr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const secret = secretOf(enrolment.totpURI);

  useEffect(() => {
    let live = true;
    toDataURL(enrolment.totpURI, { margin: 2, width: 220 }).then(
      (url) => live && setQr(url),
      () => live && setQr(null),
    );
    return () => {
      live = false;
    };
  }, [enrolment.totpURI]);

  const verify = async (code: string) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await postJson('/auth/two-factor/verify-totp', { code });
      const me = await refresh();
      if (me) void navigate('/', { replace: true });
      else setError(t`The code was accepted, but the session could not be read. Sign in again.`);
    } catch (failure) {
      if (failure instanceof ConsoleApiError && failure.code === 'code_used') setError(t`This code was used already. Wait for the next code in your app.`);
      else if (failure instanceof ConsoleApiError && [400, 401].includes(failure.status)) setError(t`Wrong code. Check your authenticator app and try again.`);
      else setError(describeError(i18n, failure).heading);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack>
      <Text>
        <Trans>Scan this QR code with your authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…).</Trans>
      </Text>
      {qr && <Image src={qr} alt={t`QR code for your authenticator app`} w={220} h={220} data-testid="totp-qr" />}
      {secret && (
        <Stack gap={4}>
          <Text size="sm">
            <Trans>Or type this key into the app:</Trans>
          </Text>
          <Code block className="console-ltr" dir="ltr" data-testid="totp-secret" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {secret}
          </Code>
        </Stack>
      )}
      <Alert variant="light" title={t`Keep your backup codes`}>
        <Stack gap="xs">
          <Text size="sm">
            <Trans>Each code signs you in once if you lose your phone. Keep them somewhere safe: they are not shown again.</Trans>
          </Text>
          <List size="sm" className="console-ltr" dir="ltr" data-testid="backup-codes">
            {enrolment.backupCodes.map((code) => (
              <List.Item key={code}>
                <Code>{code}</Code>
              </List.Item>
            ))}
          </List>
          <CopyButton value={enrolment.backupCodes.join('\n')}>
            {({ copied, copy }) => (
              <Button variant="light" size="compact-sm" onClick={copy} w="fit-content">
                {copied ? <Trans>Copied</Trans> : <Trans>Copy the backup codes</Trans>}
              </Button>
            )}
          </CopyButton>
        </Stack>
      </Alert>
      <Title order={2} size="h4">
        <Trans>Enter the code from the app</Trans>
      </Title>
      <TotpCodeForm busy={busy} error={error} onSubmit={(code) => void verify(code)} submitLabel={t`Turn on and continue`} />
    </Stack>
  );
}
