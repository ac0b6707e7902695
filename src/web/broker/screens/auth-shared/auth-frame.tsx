import { Trans, useLingui } from '@lingui/react/macro';
import { Container, Group, Paper, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { LanguageSwitch } from '../../shell/language-switch';

/** The frame of the screens before the console: sign in, set up, the second factor. */
export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useLingui();
  useDocumentTitle(`${title} · ${t`Safar console`}`);
  return (
    <Container size={460} px="sm" py="xl">
      <Group component="header" justify="space-between" mb="lg" wrap="nowrap">
        <Text fw={700} c="safar.8" size="lg">
          <Trans>Safar console</Trans>
        </Text>
        <LanguageSwitch />
      </Group>
      <Paper component="main" withBorder radius="md" p={{ base: 'md', xs: 'xl' }}>
        <Title order={1} size="h2" mb="md">
          {title}
        </Title>
        {children}
      </Paper>
    </Container>
  );
}
