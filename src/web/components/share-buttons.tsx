import { useEffect, useLayoutEffect, useRef } from 'react';
import { ActionIcon, Alert, Box, Group, Tooltip } from '@mantine/core';
import { IconBrandWhatsapp, IconCircleCheck, IconMail } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import type { ActorRef, Snapshot } from 'xstate';
import { whatsappShareUrl } from '../../contract/quote.endpoints';
import { useAnnounce } from '../shell/announcer';
import { focusableWhileBusy } from './focusable-while-busy';
import { useBottomBar } from './use-bottom-bar';

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
 * page to the customer, or e-mail it, with a toast confirming the e-mail. The e-mail button keeps
 * the focus while it sends (WCAG 2.4.3, issue 38: Mantine's `loading` disabled it and the focus
 * fell to <body>); the step machine ignores presses meanwhile. The confirmation is said through
 * the page's announcer (4.1.3): a status region mounted with its text already in it is not read.
 */
export function ShareButtons({ phone, email, template, sending, sent, onEmail }: ShareButtonsProps) {
  const { t } = useLingui();
  const announce = useAnnounce();
  const message = t`Link sent to ${email}`;
  useEffect(() => {
    if (sent) announce(message);
  }, [sent, message, announce]);
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
          <ActionIcon
            size="lg"
            variant="light"
            loading={sending}
            renderRoot={focusableWhileBusy(sending)}
            onClick={onEmail}
            aria-label={t`Send by e-mail`}
            data-testid="share-email"
          >
            <IconMail size={20} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      </Group>
      {sent && <SentToast message={message} />}
    </>
  );
}

/**
 * The "link sent" toast, at the page's bottom edge (above the compare bar) rather than over the
 * header's controls, and kept clear of the focus (WCAG 2.4.11, issue 38): Tab stops above it,
 * and a control it would cover as it appears is scrolled out from under it. Its words were
 * already said through the announcer, so it is no live region itself.
 */
function SentToast({ message }: { message: string }) {
  const bar = useRef<HTMLDivElement>(null);
  useBottomBar(bar, 1);
  useLayoutEffect(() => {
    const focused = document.activeElement;
    const toast = bar.current?.firstElementChild;
    if (!(focused instanceof HTMLElement) || focused === document.body || !toast) return;
    const covered = toast.getBoundingClientRect();
    const control = focused.getBoundingClientRect();
    if (control.bottom > covered.top && control.top < covered.bottom) focused.scrollIntoView({ block: 'nearest' });
  }, []);
  return (
    // The strip spans the page so it can stack on the compare bar; only the toast itself takes clicks.
    <Box ref={bar} pos="fixed" left={0} right={0} p="md" style={{ zIndex: 400, pointerEvents: 'none', display: 'flex', justifyContent: 'flex-end' }}>
      {/* A note, not Mantine's default alert: its words were said through the announcer. */}
      <Alert role="note" color="green" icon={<IconCircleCheck aria-hidden="true" />} maw="min(100%, 480px)" style={{ pointerEvents: 'auto' }} data-testid="share-email-toast">
        {message}
      </Alert>
    </Box>
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
