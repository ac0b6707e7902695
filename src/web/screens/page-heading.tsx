import { Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';

/**
 * The heading every screen starts with. It takes focus when the screen opens, so keyboard and
 * screen-reader users land on the new page rather than on the control they just used.
 */
export function PageHeading({ title, intro, testId }: { title: string; intro?: string; testId: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
  }, []);
  return (
    <Stack gap={6} mb="lg">
      <Title order={1} fz={{ base: 24, sm: 30 }} ref={ref} tabIndex={-1} data-testid={testId} style={{ outline: 'none' }}>
        {title}
      </Title>
      {intro && (
        <Text c="dimmed" fz={{ base: 'sm', sm: 'md' }}>
          {intro}
        </Text>
      )}
    </Stack>
  );
}
