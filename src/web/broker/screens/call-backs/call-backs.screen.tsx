import { useLingui } from '@lingui/react/macro';
import { Anchor, Stack } from '@mantine/core';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { CALL_BACK_STATUSES, type CallBackListItem } from '../../../../contract/broker-console';
import { withQuery } from '../../services/console-api';
import { useConsoleData } from '../../services/use-console-data';
import { DataView } from '../../components/data-view';
import { PageTitle } from '../../components/page-title';
import { StatusBadge } from '../../components/status-badge';
import { formatDateTime } from '../../i18n/console-format';
import { CALL_BACK_REASON_LABELS, CALL_BACK_STATUS_LABELS, labelOf } from '../../i18n/console-labels';
import { useLanguage } from '../../i18n/language-provider';
import { CallBackDetail } from './call-back-detail';
import { ConsoleTable } from '../../components/console-table';
import { ChoiceSelect } from '../../components/choice-select';
import { ConsoleDrawer } from '../../components/console-dialog';

/**
 * The call-backs customers asked for, newest first (GET /call-backs?status=): every one not
 * closed by default, or those of one status. A row's button opens it in a drawer: how to reach
 * the customer, the trip, the notes, and the form that works it.
 */
export function CallBacksScreen() {
  const { t, i18n } = useLingui();
  const { lang } = useLanguage();
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  const result = useConsoleData<CallBackListItem[]>(withQuery('/call-backs', { status }));
  const [opened, setOpened] = useState<{ id: number; status: string } | null>(null);
  // The call-back in the drawer is read from the list of its own status, so it stays there with
  // its new note when a change moves it out of this list (closing it, say).
  const detail = useConsoleData<CallBackListItem[]>(opened ? withQuery('/call-backs', { status: opened.status }) : null);
  const byId = (items: CallBackListItem[] | undefined) => items?.find((item) => item.id === opened?.id);
  const open = opened ? (byId(detail.data) ?? byId(result.data) ?? null) : null;
  const saved = (status: string) => {
    if (opened) setOpened({ id: opened.id, status });
    detail.reload();
    result.reload();
  };

  return (
    <Stack>
      <PageTitle>{t`Call-backs`}</PageTitle>
      <ChoiceSelect
        label={t`Status`}
        value={status}
        onChange={(value) => setParams(value ? { status: value } : {}, { replace: true })}
        data={[{ value: '', label: t`Open (not closed)` }, ...CALL_BACK_STATUSES.map((value) => ({ value, label: labelOf(i18n, CALL_BACK_STATUS_LABELS, value) }))]}
        maw={280}
        data-testid="call-backs-status"
      />
      <DataView result={result}>
        {(items) => (
          <ConsoleTable<CallBackListItem>
            records={items}
            fetching={result.loading}
            idAccessor="id"
            noRecordsText={t`No call-backs.`}
            data-testid="call-backs-table"
            columns={[
              {
                accessor: 'name',
                title: t`Name`,
                render: (item) => (
                  <Anchor component="button" type="button" onClick={() => setOpened({ id: item.id, status: item.status })} aria-label={t`Open the call-back of ${item.name}`} data-testid={`call-back-open-${item.id}`} ta="start">
                    {item.name}
                  </Anchor>
                ),
              },
              { accessor: 'created', title: t`Created`, render: (item) => formatDateTime(item.created, lang), noWrap: true },
              { accessor: 'reason', title: t`Reason`, render: (item) => labelOf(i18n, CALL_BACK_REASON_LABELS, item.reason) },
              { accessor: 'status', title: t`Status`, render: (item) => <StatusBadge status={item.status} labels={CALL_BACK_STATUS_LABELS} />, noWrap: true },
              { accessor: 'assignee', title: t`Assignee`, render: (item) => item.assignee ?? '—' },
            ]}
          />
        )}
      </DataView>
      <ConsoleDrawer opened={open !== null} onClose={() => setOpened(null)} title={open ? t`Call-back of ${open.name}` : ''}>
        {open && <CallBackDetail item={open} onSaved={saved} />}
      </ConsoleDrawer>
    </Stack>
  );
}
