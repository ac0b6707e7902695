import { ActionIcon, Alert, Group, Tooltip } from '@mantine/core';
import { IconBrandWhatsapp, IconCircleCheck, IconMail } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { whatsappShareUrl } from '../../../contract/quote.endpoints';
import { selectCustomer, selectEmailSent, selectSharing, selectWhatsappTemplate } from '../../../../machines/quotes.selectors';
import type { quotesLogic } from './quotes.actors';

/**
 * Agent mode only (RULINGS 15): WhatsApp the page to the customer, or e-mail it; a status toast
 * confirms the e-mail while the machine keeps its flag (5 s). Shown once the customer is known.
 */
export function AgentShare({ step }: { step: ActorRefFrom<typeof quotesLogic> }) {
  const { t } = useLingui();
  const customer = useSelector(step, selectCustomer);
  const template = useSelector(step, selectWhatsappTemplate);
  const sending = useSelector(step, selectSharing);
  const sent = useSelector(step, selectEmailSent);
  if (!customer) return null;
  const phone = customer.complete_phone_number;
  const email = customer.email;
  const onEmail = () => step.send({ type: 'share.email' });
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
