import { ActionIcon, Alert, Group, Tooltip } from '@mantine/core';
import { IconBrandWhatsapp, IconCircleCheck, IconMail } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import type { ActorRef, Snapshot } from 'xstate';
import { whatsappShareUrl } from '../../contract/quote.endpoints';

export interface ShareButtonsProps {
  /** The customer's complete phone number (wa.me) and e-mail (toast text). */
  phone: string;
  email: string;
  /** The server's WhatsApp message with the page link (RULINGS 15). */
  template: string;
  sending: boolean;
  /** The e-mail went out: the toast shows while this is true (the step machine keeps it 5 s). */
  sent: boolean;
  onEmail: () => void;
}

/**
 * Agent mode's share buttons (RULINGS 15), the same on every page that has them: WhatsApp the
 * page to the customer, or e-mail it, with a status toast confirming the e-mail.
 */
export function ShareButtons({ phone, email, template, sending, sent, onEmail }: ShareButtonsProps) {
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
          {t`Link sent to ${email}`}
        </Alert>
      )}
    </>
  );
}

/** What a step machine knows about its share (agent mode): the customer, the text, the e-mail's state. */
export interface ShareView {
  customer: { complete_phone_number: string; email: string } | null;
  template: string;
  sending: boolean;
  sent: boolean;
}

const sameShare = (a: ShareView, b: ShareView) => a.customer === b.customer && a.template === b.template && a.sending === b.sending && a.sent === b.sent;

/**
 * The share buttons of a step (quotes, review, checkout): `select` reads the step's share state
 * from its snapshot, and the e-mail button sends the step its `share.email`. Shown once the
 * customer is known.
 */
export function StepShareButtons<TSnapshot extends Snapshot<unknown>>({
  step,
  select,
}: {
  step: ActorRef<TSnapshot, { type: 'share.email' }>;
  select: (snapshot: TSnapshot) => ShareView;
}) {
  const view = useSelector(step, select, sameShare);
  if (!view.customer) return null;
  return (
    <ShareButtons
      phone={view.customer.complete_phone_number}
      email={view.customer.email}
      template={view.template}
      sending={view.sending}
      sent={view.sent}
      onEmail={() => step.send({ type: 'share.email' })}
    />
  );
}
