import type { ReactNode } from 'react';
import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';

/**
 * "Agent link not recognised": what an agent sees when the link's agent is unknown or inactive,
 * on travel details (its own check, in its form) and on every later page (agent-link-notice.tsx).
 */
export function AgentLinkAlert({ testId, children }: { testId: string; children: ReactNode }) {
  const { t } = useLingui();
  return (
    <Alert role="alert" color="red" variant="light" mb="lg" icon={<IconAlertTriangle aria-hidden="true" />} title={t`Agent link not recognised`} data-testid={testId}>
      {children}
    </Alert>
  );
}
