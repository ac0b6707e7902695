import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconBrandWhatsapp, IconPhone } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { useApp } from '../../shell/app-context';
import { LtrText } from '../../components/ltr-text';

/**
 * The manual quote line (toll-free, as a tel: link) and the WhatsApp chat, from the company
 * information (spec §1, §2 thank-you pages). `intro` says why the visitor would use them.
 */
export function ContactOptions({ intro }: { intro: string }) {
  const { t } = useLingui();
  const { companyInfo } = useApp();
  const tollFree = companyInfo.toll_free_number;
  return (
    <Paper withBorder radius="lg" p="lg" data-testid="contact-options">
      <Stack gap="sm">
        <Text>{intro}</Text>
        <Group gap="sm">
          <Button
            component="a"
            href={companyInfo.toll_free_number_tel}
            variant="light"
            leftSection={<IconPhone size={18} aria-hidden="true" />}
            aria-label={t`Call us toll-free on ${tollFree}`}
          >
            <LtrText>{tollFree}</LtrText>
          </Button>
          <Button
            component="a"
            href={companyInfo.whatsapp_url}
            target="_blank"
            rel="noopener"
            // Green text on Mantine's light green is 3.8:1, under WCAG's 4.5:1: the brand's green
            // is kept for the icon and the label stays in the body colour.
            variant="default"
            leftSection={<IconBrandWhatsapp size={18} color="var(--mantine-color-green-8)" aria-hidden="true" />}
          >
            {t`Message us on WhatsApp`}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
