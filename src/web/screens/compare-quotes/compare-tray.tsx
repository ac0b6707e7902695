import { useRef } from 'react';
import { ActionIcon, Alert, Box, Button, Container, Flex, Group, Paper, Text } from '@mantine/core';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import type { Language } from '../../../contract/endpoint';
import type { Quote } from '../../../contract/quote.endpoints';
import { ProviderLogo } from '../quotes-shared/provider-logo';
import { localized } from '../quotes-shared/quote-texts';
import { useBottomBar } from '../../components/use-bottom-bar';

export interface CompareTrayProps {
  compared: Quote[];
  open: boolean;
  askForAnother: boolean;
  refused: boolean;
  canCompare: boolean;
  lang: Language;
  onRemove: (quoteId: number) => void;
  onCompare: () => void;
}

/**
 * The compare bar fixed at the bottom (spec §2): the chosen plans, an add-another prompt at
 * exactly two, and the button that opens the table. On every width (issue 21, WCAG 1.4.4: a
 * desktop zoomed to 200 % is a narrow screen): below 768 px the plans, named without their
 * logos, take a row of their own above the button.
 */
export function CompareTray(props: CompareTrayProps) {
  if (!props.open && !props.refused) return null;
  return <ShownTray {...props} />;
}

function ShownTray({ compared, askForAnother, refused, canCompare, lang, onRemove, onCompare }: CompareTrayProps) {
  const { t } = useLingui();
  const bar = useRef<HTMLElement>(null);
  // Keeps the focus clear of the bar (WCAG 2.4.11); the agent's share toast stacks above it.
  useBottomBar(bar, 0);
  return (
    <Box ref={bar} pos="fixed" left={0} right={0} style={{ zIndex: 150 }} component="section" aria-label={t`Plans to compare`} data-testid="compare-tray">
      <Paper shadow="lg" radius={0} withBorder py={{ base: 'xs', sm: 'sm' }}>
        <Container size="lg">
          {refused && (
            // Said through the page's announcer when it happens (use-quote-announcements.ts); shown here.
            <Alert role="note" color="orange" variant="light" mb="xs" py={6} data-testid="compare-refused">
              {t`You can compare up to 3 plans`}
            </Alert>
          )}
          <Flex direction={{ base: 'column', sm: 'row' }} gap={{ base: 'xs', sm: 'md' }} justify="space-between" align={{ base: 'stretch', sm: 'center' }}>
            {/* The plans scroll sideways when they do not fit; the padding keeps a focus ring whole inside it. */}
            <Group gap="md" wrap="nowrap" p={4} style={{ minWidth: 0, overflowX: 'auto' }}>
              {compared.map((quote) => {
                const plan = quote.wizard_plan_name;
                return (
                  <Group key={quote.id} gap={6} wrap="nowrap" data-testid="compare-tray-item" style={{ flexShrink: 0 }}>
                    {/* On a phone the names alone, so more of them fit. */}
                    <Box visibleFrom="sm">
                      <ProviderLogo image={quote.provider.image} name={localized(lang, quote.provider.name, quote.provider.name_ar)} height={28} />
                    </Box>
                    <Text fz="sm" fw={600} truncate="end" maw={160}>
                      {plan}
                    </Text>
                    <ActionIcon variant="subtle" color="gray" size="md" onClick={() => onRemove(quote.id)} aria-label={t`Remove ${plan} from compare`}>
                      <IconX size={16} aria-hidden="true" />
                    </ActionIcon>
                  </Group>
                );
              })}
              {askForAnother && (
                <Group gap={4} wrap="nowrap" c="dimmed" data-testid="compare-add-another" style={{ flexShrink: 0 }}>
                  <IconPlus size={16} aria-hidden="true" />
                  <Text fz="sm">{t`Add one more plan to compare`}</Text>
                </Group>
              )}
            </Group>
            <Button onClick={onCompare} disabled={!canCompare} data-testid="compare-open" style={{ flexShrink: 0 }}>
              {t`Compare plans`}
            </Button>
          </Flex>
        </Container>
      </Paper>
    </Box>
  );
}
