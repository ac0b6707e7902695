import { useLingui } from '@lingui/react/macro';
import { Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';

/** The screen's heading, also the tab's title. */
export function PageTitle({ children }: { children: string }) {
  const { t } = useLingui();
  useDocumentTitle(`${children} · ${t`Safar console`}`);
  return (
    <Title order={1} size="h2" mb="md">
      {children}
    </Title>
  );
}
