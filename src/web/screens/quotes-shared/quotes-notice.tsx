import { Alert, type AlertProps } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import type { QuotesNotice } from '../../../../machines/quotes/quotes.types';
import { NOTICE_MESSAGES } from './quote-texts';

/**
 * Where a notice that answers the customer's action floats: fixed just under the sticky header
 * (64 px), at the end edge, over the page rather than in it. Put in the flow above the list or the
 * price, it pushed everything under it down when the server answered, while the customer was
 * reading or about to press a button (issue 19: layout shift); floating, it is in view however far
 * the page is scrolled. Like the agent's share toast, it sits below dialogs and drawers.
 */
export const FLOATING_NOTICE = {
  pos: 'fixed',
  top: 76,
  maw: 'min(480px, calc(100vw - 32px))',
  style: {
    insetInlineEnd: 16,
    zIndex: 190,
    boxShadow: 'var(--mantine-shadow-md)',
    // The light variant's tint is see-through; laid over the page's colour it reads as before.
    backgroundColor: 'var(--mantine-color-body)',
    backgroundImage: 'linear-gradient(var(--alert-bg), var(--alert-bg))',
  },
} as const satisfies AlertProps;

/** Why the last buy did not go through, floating over the list; the customer can close it. */
export function QuotesNoticeAlert({ notice, onClose }: { notice: QuotesNotice | null; onClose: () => void }) {
  const { t, i18n } = useLingui();
  if (!notice) return null;
  return (
    <Alert
      {...FLOATING_NOTICE}
      role="alert"
      color="orange"
      variant="light"
      icon={<IconAlertTriangle aria-hidden="true" />}
      withCloseButton
      closeButtonLabel={t`Close`}
      onClose={onClose}
      data-testid="quotes-notice"
    >
      {i18n._(NOTICE_MESSAGES[notice])}
    </Alert>
  );
}
