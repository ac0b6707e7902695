import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Paper, Stack, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { postJson } from '../../services/console-api';
import { fieldErrorsOf } from '../../components/describe-error';
import type { ConsoleAction } from '../../components/use-action';

/** A new agent (admin, POST /agents, agentAddSchema): a name and an e-mail. */
export function AgentAddForm({ action, onDone }: { action: ConsoleAction; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const add = async () => {
    const required = t`This field is required.`;
    const missing: Record<string, string> = {};
    if (!name.trim()) missing.name = required;
    if (!email.trim()) missing.email = required;
    setErrors(missing);
    if (Object.keys(missing).length) return;
    const added = name.trim();
    const answer = await action.run(() => postJson('/agents', { name: added, email: email.trim() }), t`Agent ${added} is added.`, (error) => setErrors(fieldErrorsOf(i18n, error)));
    if (answer !== undefined) {
      setName('');
      setEmail('');
      onDone();
    }
  };

  return (
    <Paper withBorder p="md" radius="md">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void add();
        }}
      >
        <Stack>
          <Title order={2} size="h4">
            <Trans>New agent</Trans>
          </Title>
          <Group align="flex-start" gap="sm" wrap="wrap">
            <TextInput label={t`Name`} value={name} onChange={(event) => setName(event.currentTarget.value)} error={errors.name} required maxLength={120} w={240} data-testid="agent-name" />
            <TextInput label={t`E-mail`} type="email" value={email} onChange={(event) => setEmail(event.currentTarget.value)} error={errors.email} required maxLength={254} w={260} dir="ltr" data-testid="agent-email" />
          </Group>
          <Button type="submit" loading={action.busy} disabled={action.busy} w="fit-content" data-testid="agent-add">
            <Trans>Add agent</Trans>
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
