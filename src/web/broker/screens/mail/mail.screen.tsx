import { useLingui } from '@lingui/react/macro';
import { Anchor, Button, Stack } from '@mantine/core';
import { Link, useSearchParams } from 'react-router-dom';
import { MAIL_STATUSES, type MailListItem } from '../../../../contract/broker-console';
import { postJson, segment, withQuery } from '../../services/console-api';
import { useConsoleData } from '../../services/use-console-data';
import { DataView } from '../../components/data-view';
import { PageTitle } from '../../components/page-title';
import { ResultAlert } from '../../components/result-alert';
import { StatusBadge } from '../../components/status-badge';
import { useAction } from '../../components/use-action';
import { formatDateTime } from '../../i18n/console-format';
import { labelOf, MAIL_KIND_LABELS, MAIL_STATUS_LABELS } from '../../i18n/console-labels';
import { useLanguage } from '../../i18n/language-provider';
import { ConsoleTable } from '../../components/console-table';
import { ChoiceSelect } from '../../components/choice-select';

/** The outbox (GET /mail?status=): what was sent, what waits, what failed and why, with Retry on failures. */
export function MailScreen() {
  const { t, i18n } = useLingui();
  const { lang } = useLanguage();
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  const result = useConsoleData<MailListItem[]>(withQuery('/mail', { status }));
  const action = useAction();

  const retry = async (mail: MailListItem) => {
    const answer = await action.run(() => postJson(`/mail/${segment(mail.id)}/retry`, {}), t`The e-mail to ${mail.to ?? '—'} is queued again.`);
    if (answer !== undefined) result.reload();
  };

  return (
    <Stack>
      <PageTitle>{t`Mail`}</PageTitle>
      <ChoiceSelect
        label={t`Status`}
        value={status}
        onChange={(value) => setParams(value ? { status: value } : {}, { replace: true })}
        data={[{ value: '', label: t`Any status` }, ...MAIL_STATUSES.map((value) => ({ value, label: labelOf(i18n, MAIL_STATUS_LABELS, value) }))]}
        maw={240}
        data-testid="mail-status"
      />
      <ResultAlert result={action.result} onClose={action.clear} />
      <DataView result={result}>
        {(mails) => (
          <ConsoleTable<MailListItem>
            records={mails}
            fetching={result.loading}
            idAccessor="id"
            noRecordsText={t`No e-mails.`}
            data-testid="mail-table"
            columns={[
              { accessor: 'kind', title: t`Kind`, render: (mail) => labelOf(i18n, MAIL_KIND_LABELS, mail.kind) },
              { accessor: 'to', title: t`To`, render: (mail) => <span className="console-ltr">{mail.to ?? '—'}</span> },
              { accessor: 'policy_number', title: t`Policy`, render: (mail) => <span className="console-ltr">{mail.policy_number ?? '—'}</span>, noWrap: true },
              {
                accessor: 'reference',
                title: t`Reference`,
                noWrap: true,
                render: (mail) =>
                  mail.reference ? (
                    <Anchor component={Link} to={`/orders/${segment(mail.reference)}`} className="console-ltr">
                      {mail.reference}
                    </Anchor>
                  ) : (
                    '—'
                  ),
              },
              { accessor: 'status', title: t`Status`, render: (mail) => <StatusBadge status={mail.status} labels={MAIL_STATUS_LABELS} />, noWrap: true },
              { accessor: 'attempts', title: t`Attempts` },
              { accessor: 'last_error', title: t`Last error`, render: (mail) => mail.last_error ?? '—' },
              { accessor: 'created', title: t`Created`, render: (mail) => formatDateTime(mail.created, lang), noWrap: true },
              { accessor: 'sent', title: t`Sent`, render: (mail) => formatDateTime(mail.sent, lang), noWrap: true },
              {
                accessor: 'actions',
                title: t`Actions`,
                render: (mail) =>
                  mail.status === 'failed' ? (
                    <Button size="compact-sm" variant="light" onClick={() => void retry(mail)} disabled={action.busy} aria-label={t`Retry the e-mail to ${mail.to ?? '—'}`} data-testid={`mail-retry-${mail.id}`}>
                      {t`Retry`}
                    </Button>
                  ) : null,
              },
            ]}
          />
        )}
      </DataView>
    </Stack>
  );
}
