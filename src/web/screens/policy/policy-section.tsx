import type { ReactNode } from 'react';
import { Paper, Stack, Title } from '@mantine/core';

/** One card of the policy page: a bordered panel under its own heading (h2). */
export function PolicySection({
  title,
  titleSize = 18,
  gap = 'sm',
  align,
  testId,
  children,
}: {
  title: string;
  titleSize?: number;
  gap?: 'xs' | 'sm';
  align?: 'flex-start';
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid={testId}>
      <Stack gap={gap} align={align}>
        <Title order={2} fz={titleSize}>
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}
