import { memo } from 'react';
import { Group, Loader, Paper, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';

/**
 * Checkout while its plan and totals load: the words of spec §2 over outlines of the plan summary,
 * travellers, coupon box, price summary and payment panel, each at the minimum height the real one
 * has at 375 and 1280 px (one traveller, no add-ons), so the page does not grow under the customer
 * when they arrive (issue 19: layout shift). Memoised: when the data arrive, the screen renders
 * once more with the outline still shown (its view state is deferred, use-shown-view-state.ts),
 * and at once, so that render must not redraw the outline's hundred components.
 */
export const CheckoutLoading = memo(function CheckoutLoading() {
  const { t } = useLingui();
  return (
    <Stack gap="lg" role="status" data-testid="checkout-loading">
      {/* PlanSummary keeps its own bottom margin inside the stack; so does its outline. */}
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} mb="lg" mih={{ base: 594, sm: 500 }}>
        <Stack gap="md">
          <Group gap="sm" wrap="nowrap" mih={40}>
            <Loader size="sm" aria-hidden="true" />
            <Text c="dimmed">{t`Please wait while we load your plan…`}</Text>
          </Group>
          <Stack gap={8} aria-hidden="true">
            <Skeleton height={24} width="50%" radius="sm" />
            <Skeleton height={14} width="35%" radius="sm" />
            <Skeleton height={16} width="60%" radius="sm" />
          </Stack>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" aria-hidden="true">
            {[0, 1, 2].map((fact) => (
              <Skeleton key={fact} height={38} radius="sm" />
            ))}
          </SimpleGrid>
          <Stack gap={10} aria-hidden="true">
            {[0, 1, 2, 3, 4].map((row) => (
              <Group key={row} justify="space-between" wrap="nowrap">
                <Skeleton height={14} width="50%" radius="sm" />
                <Skeleton height={14} width={80} radius="sm" />
              </Group>
            ))}
          </Stack>
          <Group justify="space-between" wrap="nowrap" pt="sm" aria-hidden="true" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
            <Skeleton height={18} width={120} radius="sm" />
            <Skeleton height={28} width={96} radius="sm" />
          </Group>
        </Stack>
      </Paper>
      <OutlineBox minHeight={{ base: 196, sm: 204 }} lines={3} />
      <OutlineBox minHeight={{ base: 101, sm: 109 }} lines={1} />
      <OutlineBox minHeight={{ base: 172, sm: 180 }} lines={3} />
      <OutlineBox minHeight={{ base: 120, sm: 128 }} lines={2} />
    </Stack>
  );
});

/** One bordered section's outline: a heading line and a few rows, at the section's height. */
function OutlineBox({ minHeight, lines }: { minHeight: { base: number; sm: number }; lines: number }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} mih={minHeight} aria-hidden="true">
      <Stack gap="sm">
        <Skeleton height={20} width={140} radius="sm" />
        {Array.from({ length: lines }, (_, line) => (
          <Skeleton key={line} height={14} width={line % 2 ? '60%' : '85%'} radius="sm" />
        ))}
      </Stack>
    </Paper>
  );
}
