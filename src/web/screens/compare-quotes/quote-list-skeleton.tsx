import { Divider, Grid, Paper, SimpleGrid, Skeleton, Stack } from '@mantine/core';

/** How many card outlines stand in for the list: enough to fill a laptop's screen. */
const CARDS = 3;

/**
 * The outline of the quote list while it loads: the summary's trip line, the sort and insurer
 * fields, and cards of the real cards' size (QuoteCard's grid, paddings and minimum heights as
 * measured at 375 and 1280 px), so nothing on the page moves when the plans replace it.
 */
export function QuoteListSkeleton() {
  return (
    <>
      {/* The summary's trip line under its heading (QuotesSummary: gap 6, then mb md). */}
      <Skeleton height={18} width={240} maw="100%" radius="sm" mt={6} mb="md" />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
        {[0, 1].map((field) => (
          <Stack key={field} gap={6}>
            <Skeleton height={16} width={80} radius="sm" />
            <Skeleton height={36} radius="sm" />
          </Stack>
        ))}
      </SimpleGrid>
      <Stack gap="md" mt="md">
        {Array.from({ length: CARDS }, (_, card) => (
          <QuoteCardSkeleton key={card} />
        ))}
      </Stack>
    </>
  );
}

/**
 * One card's outline: the insurer's logo, the plan's name and its benefits beside the price and
 * the buy button. Five bars, not the card's twenty lines: the page is pre-rendered with three of
 * these, and every bar is an element the phone styles, lays out and animates again as each font
 * arrives (issue 19: 59 bars per language became 20; taking away even those 20 halves a forced
 * style and layout pass of the loading page, 9.4 → 4.3 ms at desktop speed).
 */
function QuoteCardSkeleton() {
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} mih={{ base: 650, md: 335 }}>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="sm">
            <Skeleton height={40} width={100} radius="sm" />
            <Skeleton height={22} width="55%" radius="sm" />
            <Skeleton height={130} radius="sm" />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="sm">
            <Divider hiddenFrom="md" />
            <Skeleton height={36} width={90} radius="sm" />
            <Skeleton height={36} radius="sm" />
          </Stack>
        </Grid.Col>
      </Grid>
    </Paper>
  );
}
