import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Stack, TextInput } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { isSixDigits, normalisedCode } from './totp-code';

/**
 * The six-digit code of the authenticator app. Digits typed on an Arabic keyboard (٠-٩) and
 * spaces ("123 456") are accepted: the code is sent as six Western digits.
 */
export function TotpCodeForm({ busy, error, onSubmit, submitLabel }: { busy: boolean; error: ReactNode; onSubmit: (code: string) => void; submitLabel?: string }) {
  const { t } = useLingui();
  const [typed, setTyped] = useState('');
  const [invalid, setInvalid] = useState(false);
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const code = normalisedCode(typed);
        setInvalid(!isSixDigits(code));
        if (isSixDigits(code)) onSubmit(code);
      }}
    >
      <Stack>
        <TextInput
          label={t`6-digit code`}
          description={t`The code your authenticator app shows now.`}
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          inputMode="numeric"
          autoComplete="one-time-code"
          dir="ltr"
          maxLength={20}
          error={invalid ? t`Enter the 6 digits of the code.` : error || undefined}
          data-testid="totp-code"
          required
        />
        <Button type="submit" loading={busy} disabled={busy} data-testid="totp-submit">
          {submitLabel ?? <Trans>Verify</Trans>}
        </Button>
      </Stack>
    </form>
  );
}
