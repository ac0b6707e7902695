import { Trans } from '@lingui/react/macro';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';

/** What a page the server refused (403) shows instead of a blank page. */
export function NoAccessPanel() {
  return (
    <Alert variant="light" title={<Trans>You do not have access to this page</Trans>} data-testid="no-access">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          <Trans>Your role does not include this page. Ask an admin if you need it.</Trans>
        </Text>
        <Button component={Link} to="/" variant="light">
          <Trans>Back to Today</Trans>
        </Button>
      </Stack>
    </Alert>
  );
}
