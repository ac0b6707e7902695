import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Stack } from '@mantine/core';
import { useState } from 'react';
import type { AgentListItem } from '../../../../contract/broker-console';
import { postJson, segment } from '../../services/console-api';
import { useConsoleData } from '../../services/use-console-data';
import { ConfirmModal } from '../../components/confirm-modal';
import { DataView } from '../../components/data-view';
import { PageTitle } from '../../components/page-title';
import { ResultAlert } from '../../components/result-alert';
import { useAction } from '../../components/use-action';
import { formatDay, formatNumber } from '../../i18n/console-format';
import { useLanguage } from '../../i18n/language-provider';
import { AgentAddForm } from './agent-add-form';
import { ConsoleTable } from '../../components/console-table';
import { ToneBadge } from '../../components/tone-badge';

/** The agents (admin, GET /agents): their leads, shares and paid orders; add one, disable one. */
export function AgentsScreen() {
  const { t } = useLingui();
  const { lang } = useLanguage();
  const result = useConsoleData<AgentListItem[]>('/agents');
  const action = useAction();
  const [disabling, setDisabling] = useState<AgentListItem | null>(null);

  const disable = async (agent: AgentListItem) => {
    const name = agent.name;
    const answer = await action.run(() => postJson(`/agents/${segment(agent.id)}/disable`, {}), t`Agent ${name} is disabled.`);
    setDisabling(null);
    if (answer !== undefined) result.reload();
  };

  return (
    <Stack>
      <PageTitle>{t`Agents`}</PageTitle>
      <ResultAlert result={action.result} onClose={action.clear} />
      <AgentAddForm action={action} onDone={result.reload} />
      <DataView result={result}>
        {(agents) => (
          <ConsoleTable<AgentListItem>
            records={agents}
            fetching={result.loading}
            idAccessor="id"
            noRecordsText={t`No agents.`}
            data-testid="agents-table"
            columns={[
              { accessor: 'id', title: t`ID` },
              { accessor: 'name', title: t`Name` },
              { accessor: 'email', title: t`E-mail`, render: (agent) => <span className="console-ltr">{agent.email}</span> },
              { accessor: 'created', title: t`Added`, render: (agent) => formatDay(agent.created, lang), noWrap: true },
              { accessor: 'leads', title: t`Leads`, render: (agent) => formatNumber(agent.leads, lang) },
              { accessor: 'shares', title: t`Shares by e-mail`, render: (agent) => formatNumber(agent.shares, lang) },
              { accessor: 'paid_orders', title: t`Paid orders`, render: (agent) => formatNumber(agent.paid_orders, lang) },
              {
                accessor: 'active',
                title: t`Active`,
                render: (agent) => (
                  <ToneBadge color={agent.active ? 'cedar' : 'gray'}>
                    {agent.active ? t`Active` : t`Disabled`}
                  </ToneBadge>
                ),
              },
              {
                accessor: 'actions',
                title: t`Actions`,
                render: (agent) =>
                  agent.active ? (
                    <Button size="compact-sm" variant="light" color="red" onClick={() => setDisabling(agent)} disabled={action.busy} aria-label={t`Disable agent ${agent.name}`} data-testid={`agent-disable-${agent.id}`}>
                      <Trans>Disable</Trans>
                    </Button>
                  ) : null,
              },
            ]}
          />
        )}
      </DataView>
      <ConfirmModal
        opened={disabling !== null}
        title={t`Disable agent`}
        question={disabling ? t`Disable agent ${disabling.name}? Their links stop naming them.` : ''}
        confirmLabel={t`Disable`}
        busy={action.busy}
        danger
        onConfirm={() => disabling && void disable(disabling)}
        onClose={() => setDisabling(null)}
      />
    </Stack>
  );
}
