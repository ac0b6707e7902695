import { ActionIcon, Alert, Box, Button, Container, Group, Paper, Text } from '@mantine/core';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import type { Language } from '../../../contract/endpoint';
import type { Quote } from '../../../contract/quote.endpoints';
import { ProviderLogo } from '../quotes-shared/provider-logo';
import { localized } from '../quotes-shared/quote-texts';

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
 * The compare bar fixed at the bottom (spec §2), on screens from 768 px: the chosen plans, an
 * add-another prompt at exactly two, and the button that opens the table.
 */
export function CompareTray({ compared, open, askForAnother, refused, canCompare, lang, onRemove, onCompare }: CompareTrayProps) {
  const { t } = useLingui();
  if (!open && !refused) return null;
  return (
    <Box
      visibleFrom="sm"
      pos="fixed"
      bottom={0}
      left={0}
      right={0}
      style={{ zIndex: 150 }}
      component="section"
      aria-label={t`Plans to compare`}
      data-testid="compare-tray"
    >
      <Paper shadow="lg" radius={0} withBorder py="sm">
        <Container size="lg">
          {refused && (
            <Alert role="alert" color="orange" variant="light" mb="xs" py={6} data-testid="compare-refused">
              {t`You can compare up to 3 plans`}
            </Alert>
          )}
          <Group justify="space-between" wrap="nowrap" gap="md">
            <Group gap="md" wrap="nowrap" style={{ minWidth: 0, overflowX: 'auto' }}>
              {compared.map((quote) => {
                const plan = quote.wizard_plan_name;
                return (
                <Group key={quote.id} gap={6} wrap="nowrap" data-testid="compare-tray-item">
                  <ProviderLogo image={quote.provider.image} name={localized(lang, quote.provider.name, quote.provider.name_ar)} height={28} />
                  <Text fz="sm" fw={600} truncate="end" maw={160}>
                    {quote.wizard_plan_name}
                  </Text>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    size="sm"
                    onClick={() => onRemove(quote.id)}
                    aria-label={t`Remove ${plan} from compare`}
                  >
                    <IconX size={16} aria-hidden="true" />
                  </ActionIcon>
                </Group>
                );
              })}
              {askForAnother && (
                <Group gap={4} wrap="nowrap" c="dimmed" data-testid="compare-add-another">
                  <IconPlus size={16} aria-hidden="true" />
                  <Text fz="sm">{t`Add one more plan to compare`}</Text>
                </Group>
              )}
            </Group>
            <Button onClick={onCompare} disabled={!canCompare} data-testid="compare-open" style={{ flexShrink: 0 }}>
              {t`Compare plans`}
            </Button>
          </Group>
        </Container>
      </Paper>
    </Box>
  );
}
