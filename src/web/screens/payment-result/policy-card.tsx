import { ActionIcon, Button, CopyButton, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconDownload, IconMail, IconShieldCheck } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import type { Language } from '../../../contract/endpoint';
import type { PaymentPolicy } from '../../../contract/payment.endpoints';
import { formatMoney } from '../../i18n/format';
import { JourneyActorContext } from '../../journey/journey-context';
import { policyTokenOfPath } from '../../../../machines/journey.routes';

/**
 * The issued policy (RULINGS 21): its number, large and copyable (read left to right inside
 * Arabic text), what was paid (to the cent, RULINGS 26), and the certificate's download. The download is a real link, so
 * it works by keyboard, from a screen reader's links list and without JavaScript; the server
 * names the file.
 */
export function PolicyCard({ policy, amount, lang }: { policy: PaymentPolicy; amount: number | null; lang: Language }) {
  const { t } = useLingui();
  const journey = JourneyActorContext.useActorRef();
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="policy-card">
      <Stack gap="md">
        <Stack gap={4}>
          <Text c="dimmed" fz="sm">
            {t`Policy number`}
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Text component="bdi" dir="ltr" fz={{ base: 24, sm: 30 }} fw={700} ff="monospace" data-testid="policy-number" style={{ wordBreak: 'break-all' }}>
              {policy.policy_number}
            </Text>
            <CopyButton value={policy.policy_number}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? t`Copied` : t`Copy policy number`} withArrow>
                  <ActionIcon variant="subtle" size="lg" onClick={copy} aria-label={copied ? t`Policy number copied` : t`Copy policy number`} data-testid="copy-policy-number">
                    {copied ? <IconCheck size={20} aria-hidden="true" /> : <IconCopy size={20} aria-hidden="true" />}
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
          </Group>
        </Stack>
        {amount !== null && (
          <Group gap="xs">
            <Text c="dimmed">{t`Amount paid`}</Text>
            <Text fw={600} data-testid="amount-paid">
              {formatMoney(amount, lang, { cents: true })}
            </Text>
          </Group>
        )}
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <IconMail size={20} aria-hidden="true" style={{ flexShrink: 0 }} />
          <Text>{t`We sent the certificate to your e-mail.`}</Text>
        </Group>
        <Group gap="sm">
          <Button
            component="a"
            href={policy.certificate_url}
            download
            size="md"
            leftSection={<IconDownload size={18} aria-hidden="true" />}
            data-testid="certificate-download"
          >
            {t`Download certificate (PDF)`}
          </Button>
          {/* The policy's own page (issue 37): a real link, so it can be opened in a new tab or bookmarked. */}
          <Button
            component="a"
            href={policy.policy_page}
            variant="light"
            size="md"
            leftSection={<IconShieldCheck size={18} aria-hidden="true" />}
            onClick={(event: React.MouseEvent<HTMLAnchorElement>) => {
              const policyToken = policyTokenOfPath(policy.policy_page);
              if (!policyToken || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
              event.preventDefault();
              journey.send({ type: 'policy.opened', policyToken });
            }}
            data-testid="open-policy-page"
          >
            {t`Open your policy page`}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
