import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Code, CopyButton, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { CONSOLE_ROLES, type ConsoleRole } from '../../../../contract/broker-console';
import { postJson } from '../../services/console-api';
import { fieldErrorsOf } from '../../components/describe-error';
import type { ConsoleAction } from '../../components/use-action';
import { labelOf, ROLE_LABELS } from '../../i18n/console-labels';
import { ChoiceSelect } from '../../components/choice-select';

/**
 * A new console account (admin, POST /users): an e-mail and a role. The answer's one-time setup
 * link is shown once, with a copy button, to send to the person by a channel of the team's own.
 */
export function UserAddForm({ action, onDone }: { action: ConsoleAction; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<ConsoleRole>('staff');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [setupUrl, setSetupUrl] = useState<string | null>(null);

  const add = async () => {
    if (!email.trim()) {
      setErrors({ email: t`This field is required.` });
      return;
    }
    setErrors({});
    setSetupUrl(null);
    const added = email.trim();
    const answer = await action.run(() => postJson<{ setup_url: string }>('/users', { email: added, role }), t`The account of ${added} is created.`, (error) => setErrors(fieldErrorsOf(i18n, error)));
    if (answer !== undefined) {
      setSetupUrl(answer.setup_url);
      setEmail('');
      onDone();
    }
  };

  return (
    <Paper withBorder p="md" radius="md">
      <Stack>
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void add();
          }}
        >
          <Stack>
            <Title order={2} size="h4">
              <Trans>New user</Trans>
            </Title>
            <Group align="flex-start" gap="sm" wrap="wrap">
              <TextInput label={t`E-mail`} type="email" value={email} onChange={(event) => setEmail(event.currentTarget.value)} error={errors.email} required maxLength={254} w={280} dir="ltr" data-testid="user-email" />
              <ChoiceSelect
                label={t`Role`}
                value={role}
                onChange={(value) => setRole(value as ConsoleRole)}
                data={CONSOLE_ROLES.map((value) => ({ value, label: labelOf(i18n, ROLE_LABELS, value) }))}
                error={errors.role}
                w={160}
                data-testid="user-role"
              />
            </Group>
            <Button type="submit" loading={action.busy} disabled={action.busy} w="fit-content" data-testid="user-add">
              <Trans>Add user</Trans>
            </Button>
          </Stack>
        </form>
        {setupUrl && (
          <Alert variant="light" title={t`The setup link, shown once`} data-testid="setup-url-panel">
            <Stack gap="xs">
              <Text size="sm">
                <Trans>Send this link to the person: it sets their password and authenticator app, and works once.</Trans>
              </Text>
              <Code block className="console-ltr" dir="ltr" data-testid="setup-url" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
                {setupUrl}
              </Code>
              <CopyButton value={setupUrl}>
                {({ copied, copy }) => (
                  <Button size="compact-sm" variant="light" onClick={copy} w="fit-content" data-testid="setup-url-copy">
                    {copied ? <Trans>Copied</Trans> : <Trans>Copy the link</Trans>}
                  </Button>
                )}
              </CopyButton>
            </Stack>
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
