import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ConsoleApiError } from '../services/console-api';
import type { ConsoleData } from '../services/use-console-data';
import { describeError } from './describe-error';
import { NoAccessPanel } from './no-access-panel';

/** A centred spinner with a name for screen readers. */
export function PageLoader() {
  const { t } = useLingui();
  return (
    <Center py="xl" role="status" aria-label={t`Loading`}>
      <Loader />
    </Center>
  );
}

/** A failed read: the no-access panel for a 403, else what failed and a button to try again. */
export function LoadError({ error, onRetry }: { error: Error; onRetry?: () => void }) {
  const { i18n } = useLingui();
  if (error instanceof ConsoleApiError && error.status === 403) return <NoAccessPanel />;
  const text = describeError(i18n, error);
  return (
    <Alert color="red" variant="light" title={text.heading} role="alert">
      <Stack gap="sm" align="flex-start">
        {text.detail && <Text size="sm">{text.detail}</Text>}
        {onRetry && (
          <Button variant="light" color="red" onClick={onRetry}>
            <Trans>Try again</Trans>
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

/**
 * What a screen shows of a read: the spinner before the first answer, the error (with the
 * no-access panel for a 403), else `children` with the data.
 */
export function DataView<T>({ result, children }: { result: ConsoleData<T>; children: (data: T) => ReactNode }) {
  if (result.error && (result.data === undefined || (result.error instanceof ConsoleApiError && result.error.status === 403))) {
    return <LoadError error={result.error} onRetry={result.reload} />;
  }
  if (result.data === undefined) return <PageLoader />;
  return (
    <>
      {result.error && <LoadError error={result.error} onRetry={result.reload} />}
      {children(result.data)}
    </>
  );
}
