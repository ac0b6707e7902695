import { ActionIcon, Alert, Group, Tooltip } from '@mantine/core';
import { IconBrandWhatsapp, IconCircleCheck, IconMail } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { whatsappShareUrl } from '../../../contract/quote.endpoints';

export interface AgentShareProps {
  phone: string;
  template: string;
  email: string;
  sending: boolean;
  sent: boolean;
  onEmail: () => void;
}

/**
 * Agent mode only (RULINGS 15): WhatsApp the page to the customer, or e-mail it; a status toast
 * confirms the e-mail while the machine keeps its flag (5 s).
 */
export function AgentShare({ phone, template, email, sending, sent, onEmail }: AgentShareProps) {
  const { t } = useLingui();
  return (
    <>
      <Group gap="xs" data-testid="agent-share">
        <Tooltip label={t`Share on WhatsApp`}>
          <ActionIcon
            component="a"
            href={whatsappShareUrl(phone, template)}
            target="_blank"
            rel="noopener noreferrer"
            size="lg"
            variant="light"
            color="green"
            aria-label={t`Share on WhatsApp`}
            data-testid="share-whatsapp"
          >
            <IconBrandWhatsapp size={20} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={t`Send by e-mail`}>
          <ActionIcon size="lg" variant="light" loading={sending} onClick={onEmail} aria-label={t`Send by e-mail`} data-testid="share-email">
            <IconMail size={20} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      </Group>
      {sent && (
        <Alert
          role="status"
          color="green"
          icon={<IconCircleCheck aria-hidden="true" />}
          pos="fixed"
          top={16}
          style={{ insetInlineEnd: 16, zIndex: 400, maxWidth: 'calc(100vw - 32px)' }}
          data-testid="share-email-toast"
        >
          {t`Quotes sent to ${email}`}
        </Alert>
      )}
    </>
  );
}
