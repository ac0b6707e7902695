import { Group, Stack, Text } from '@mantine/core';
import type { Language } from '../../../contract/endpoint';
import type { Highlight } from '../../../contract/invoice.schema';
import type { Benefit } from '../../../contract/quote.endpoints';
import { localized } from '../quotes-shared/quote-texts';

/** Label and value rows of a plan's highlights or benefits, in the page's language. */
export function HighlightList({ highlights, lang, testId }: { highlights: Highlight[]; lang: Language; testId?: string }) {
  return (
    <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }} data-testid={testId}>
      {highlights.map((highlight) => (
        <Group key={highlight.key} component="li" justify="space-between" wrap="nowrap" gap="sm" fz="sm">
          <Text fz="sm" c="dimmed">
            {localized(lang, highlight.label, highlight.label_ar)}
          </Text>
          <Text fz="sm" fw={600} ta="end">
            {localized(lang, highlight.value, highlight.value_ar) || '-'}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}

export function BenefitList({ benefits, lang }: { benefits: Benefit[]; lang: Language }) {
  return (
    <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
      {benefits.map((benefit) => (
        <Group key={benefit.label} component="li" justify="space-between" wrap="nowrap" gap="sm">
          <Text fz="sm" c="dimmed">
            {localized(lang, benefit.label, benefit.label_ar)}
          </Text>
          <Text fz="sm" fw={600} ta="end">
            {localized(lang, benefit.value_to_display, benefit.value_to_display_ar) || '-'}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
