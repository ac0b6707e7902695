import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { PageTitle } from '../components/page-title';

/** A console path that names no screen. */
export function NotFoundScreen() {
  const { t } = useLingui();
  return (
    <Stack align="flex-start">
      <PageTitle>{t`Page not found`}</PageTitle>
      <Text>
        <Trans>There is no such page in the console.</Trans>
      </Text>
      <Button component={Link} to="/" variant="light">
        <Trans>Back to Today</Trans>
      </Button>
    </Stack>
  );
}
