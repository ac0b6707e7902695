import { Trans, useLingui } from '@lingui/react/macro';
import { Button, PasswordInput, Stack } from '@mantine/core';
import { useState } from 'react';
import { CONSOLE_PASSWORD_MAX, CONSOLE_PASSWORD_MIN } from '../../../../contract/broker-console';

/** A new password typed twice: at least CONSOLE_PASSWORD_MIN characters, the same both times. */
export function NewPasswordForm({ busy, onSubmit }: { busy: boolean; onSubmit: (password: string) => void }) {
  const { t } = useLingui();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [checked, setChecked] = useState(false);
  const tooShort = password.length < CONSOLE_PASSWORD_MIN;
  const tooLong = password.length > CONSOLE_PASSWORD_MAX;
  const differs = repeat !== password;
  const min = CONSOLE_PASSWORD_MIN;
  const toggle = { 'aria-label': t`Show or hide what you typed` };
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setChecked(true);
        if (!tooShort && !tooLong && !differs) onSubmit(password);
      }}
    >
      <Stack>
        <PasswordInput
          label={t`New password`}
          description={t`At least ${min} characters.`}
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          error={checked && tooShort ? t`Use at least ${min} characters.` : checked && tooLong ? t`This is too long.` : undefined}
          visibilityToggleButtonProps={toggle}
          required
          data-testid="new-password"
        />
        <PasswordInput
          label={t`Repeat the password`}
          autoComplete="new-password"
          value={repeat}
          onChange={(event) => setRepeat(event.currentTarget.value)}
          error={checked && differs ? t`The two passwords differ.` : undefined}
          visibilityToggleButtonProps={toggle}
          required
          data-testid="repeat-password"
        />
        <Button type="submit" loading={busy} disabled={busy} data-testid="password-submit">
          <Trans>Continue</Trans>
        </Button>
      </Stack>
    </form>
  );
}
