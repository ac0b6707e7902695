import { Trans } from '@lingui/react/macro';
import { Alert, Button, Container, Stack, Text } from '@mantine/core';
import { useRouteError } from 'react-router-dom';

/**
 * What shows when a screen fails to load or throws (a chunk that a new release replaced, say):
 * never a blank page, and a reload brings the current release.
 */
export function RouteErrorPanel() {
  const error = useRouteError();
  console.error(error);
  return (
    <Container size="sm" py="xl">
      <Alert color="red" variant="light" role="alert" title={<Trans>This page could not be shown</Trans>}>
        <Stack gap="sm" align="flex-start">
          <Text size="sm">
            <Trans>Reload the page to try again. If it keeps failing, tell the team what you were doing.</Trans>
          </Text>
          <Button variant="light" color="red" onClick={() => window.location.reload()}>
            <Trans>Reload</Trans>
          </Button>
        </Stack>
      </Alert>
    </Container>
  );
}
