import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import type { QuotesNotice } from '../../../../machines/quotes.types';
import { NOTICE_MESSAGES } from './quote-texts';

/** Why the last buy did not go through, above the list; the customer can close it. */
export function QuotesNoticeAlert({ notice, onClose }: { notice: QuotesNotice | null; onClose: () => void }) {
  const { t, i18n } = useLingui();
  if (!notice) return null;
  return (
    <Alert
      role="alert"
      color="orange"
      variant="light"
      mb="md"
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
