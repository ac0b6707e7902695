import { useLingui } from '@lingui/react/macro';
import { Alert, Text } from '@mantine/core';
import { CEDAR_TEXT } from './tone-badge';
import type { ActionResult } from './use-action';

/** The answer to a change, announced: a status for a success, an alert for a failure. */
export function ResultAlert({ result, onClose }: { result: ActionResult; onClose?: () => void }) {
  const { t } = useLingui();
  if (!result) return null;
  if (result.kind === 'success') {
    return (
      <Alert color="cedar" variant="light" role="status" title={t`Done`} styles={{ title: { color: CEDAR_TEXT } }} withCloseButton={!!onClose} onClose={onClose} closeButtonLabel={t`Dismiss`} data-testid="result-success">
        <Text size="sm">{result.text}</Text>
      </Alert>
    );
  }
  return (
    <Alert color="red" variant="light" role="alert" title={result.heading} withCloseButton={!!onClose} onClose={onClose} closeButtonLabel={t`Dismiss`} data-testid="result-error">
      {result.detail && <Text size="sm">{result.detail}</Text>}
    </Alert>
  );
}
