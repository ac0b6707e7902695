import { useLingui } from '@lingui/react/macro';
import { Stack } from '@mantine/core';
import type { ConsoleUserItem } from '../../../../contract/broker-console';
import { useConsoleData } from '../../services/use-console-data';
import { DataView } from '../../components/data-view';
import { PageTitle } from '../../components/page-title';
import { ResultAlert } from '../../components/result-alert';
import { useAction } from '../../components/use-action';
import { formatDay } from '../../i18n/console-format';
import { labelOf, ROLE_LABELS } from '../../i18n/console-labels';
import { useLanguage } from '../../i18n/language-provider';
import { UserAddForm } from './user-add-form';
import { ConsoleTable } from '../../components/console-table';
import { ToneBadge } from '../../components/tone-badge';

/** The console's accounts (admin, GET /users), and a new one with its setup link. */
export function UsersScreen() {
  const { t, i18n } = useLingui();
  const { lang } = useLanguage();
  const result = useConsoleData<ConsoleUserItem[]>('/users');
  const action = useAction();
  return (
    <Stack>
      <PageTitle>{t`Users`}</PageTitle>
      <ResultAlert result={action.result} onClose={action.clear} />
      <UserAddForm action={action} onDone={result.reload} />
      <DataView result={result}>
        {(users) => (
          <ConsoleTable<ConsoleUserItem>
            records={users}
            fetching={result.loading}
            idAccessor="id"
            noRecordsText={t`No users.`}
            data-testid="users-table"
            columns={[
              { accessor: 'email', title: t`E-mail`, render: (user) => <span className="console-ltr">{user.email}</span> },
              { accessor: 'name', title: t`Name`, render: (user) => user.name || '—' },
              { accessor: 'role', title: t`Role`, render: (user) => labelOf(i18n, ROLE_LABELS, user.role) },
              { accessor: 'two_factor_enabled', title: t`Authenticator app`, render: (user) => (user.two_factor_enabled ? t`Set up` : t`Not set up`) },
              { accessor: 'created', title: t`Added`, render: (user) => formatDay(user.created, lang), noWrap: true },
              {
                accessor: 'disabled',
                title: t`Active`,
                render: (user) => (
                  <ToneBadge color={user.disabled ? 'gray' : 'cedar'}>
                    {user.disabled ? t`Disabled` : t`Active`}
                  </ToneBadge>
                ),
              },
            ]}
          />
        )}
      </DataView>
    </Stack>
  );
}
