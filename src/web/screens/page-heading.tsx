import { Stack, Text, Title } from '@mantine/core';
import { createContext, useContext, useEffect, useRef } from 'react';

/** Whether the screen was opened by an in-app step change (and not by loading the page). */
export const ScreenFocusContext = createContext(false);

/**
 * The heading every screen starts with. When a step change opens the screen, the heading takes
 * focus, so keyboard and screen-reader users land on the new page rather than on the control
 * they just used.
 */
export function PageHeading({ title, intro, testId }: { title: string; intro?: string; testId: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const focusOnOpen = useContext(ScreenFocusContext);
  useEffect(() => {
    if (focusOnOpen) ref.current?.focus({ preventScroll: true });
  }, [focusOnOpen]);
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
