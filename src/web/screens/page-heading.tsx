import { Stack, Text, Title } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';
import { createContext, useContext, useEffect, useRef } from 'react';

/** Whether the screen was opened by an in-app step change (and not by loading the page). */
export const ScreenFocusContext = createContext(false);

/**
 * The heading every screen starts with. When a step change opens the screen, the heading takes
 * focus, so keyboard and screen-reader users land on the new page rather than on the control
 * they just used. The heading also names the browser tab, in the page's language (issue 21,
 * WCAG 2.4.2): each screen has its own title, and a result page's names its outcome.
 */
export function PageHeading({ title, intro, testId }: { title: string; intro?: string; testId: string }) {
  const { t } = useLingui();
  const ref = useRef<HTMLHeadingElement>(null);
  const focusOnOpen = useContext(ScreenFocusContext);
  useEffect(() => {
    if (focusOnOpen) ref.current?.focus({ preventScroll: true });
  }, [focusOnOpen]);
  const tabTitle = t`${title} · Safar`;
  useEffect(() => {
    document.title = tabTitle;
  }, [tabTitle]);
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
