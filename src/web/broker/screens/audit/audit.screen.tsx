import { useLingui } from '@lingui/react/macro';
import { Stack } from '@mantine/core';
import type { AuditListItem } from '../../../../contract/broker-console';
import { useConsoleData } from '../../services/use-console-data';
import { DataView } from '../../components/data-view';
import { JsonCode } from '../../components/json-code';
import { PageTitle } from '../../components/page-title';
import { formatDateTime } from '../../i18n/console-format';
import { useLanguage } from '../../i18n/language-provider';
import { ConsoleTable } from '../../components/console-table';

/** Who did what to which, with the values before and after (admin, GET /audit). */
export function AuditScreen() {
  const { t } = useLingui();
  const { lang } = useLanguage();
  const result = useConsoleData<AuditListItem[]>('/audit');
  return (
    <Stack>
      <PageTitle>{t`Audit log`}</PageTitle>
      <DataView result={result}>
        {(entries) => (
          <ConsoleTable<AuditListItem & { key: number }>
            verticalAlign="top"
            records={entries.map((entry, index) => ({ ...entry, key: index }))}
            idAccessor="key"
            noRecordsText={t`Nothing recorded yet.`}
            data-testid="audit-table"
            columns={[
              { accessor: 'at', title: t`When`, render: (entry) => formatDateTime(entry.at, lang), noWrap: true },
              { accessor: 'actor', title: t`Who`, render: (entry) => <span className="console-ltr">{entry.actor}</span>, noWrap: true },
              { accessor: 'action', title: t`What`, render: (entry) => <span className="console-ltr">{entry.action}</span>, noWrap: true },
              { accessor: 'target', title: t`Which`, render: (entry) => <span className="console-ltr">{entry.target}</span> },
              // Wide enough to read on a phone: the table scrolls sideways rather than wrap JSON a letter a line.
              { accessor: 'before', title: t`Before`, render: (entry) => <JsonCode value={entry.before} />, width: 280 },
              { accessor: 'after', title: t`After`, render: (entry) => <JsonCode value={entry.after} />, width: 280 },
            ]}
          />
        )}
      </DataView>
    </Stack>
  );
}
