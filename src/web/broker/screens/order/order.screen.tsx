import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Stack } from '@mantine/core';
import { Link, useParams } from 'react-router-dom';
import type { OrderDetail } from '../../../../contract/broker-console';
import { segment } from '../../services/console-api';
import { useMe } from '../../services/console-session';
import { useConsoleData } from '../../services/use-console-data';
import { DataView } from '../../components/data-view';
import { PageTitle } from '../../components/page-title';
import { ResultAlert } from '../../components/result-alert';
import { useAction } from '../../components/use-action';
import { OrderContractView } from './order-contract-view';
import { OrderSummary } from './order-summary';
import { MailsTable, NoticesTable, RefundsTable } from './order-tables';
import { PolicyPanel } from './policy-panel';

/**
 * One order's whole story (GET /orders/:ref): its facts, policy, what was bought, refunds,
 * gateway notices and e-mails, with the actions the role may take. After an action the order is
 * read again; the answer shows at the top.
 */
export function OrderScreen() {
  const { t } = useLingui();
  const { ref = '' } = useParams();
  const me = useMe();
  const admin = me.role === 'admin';
  const result = useConsoleData<OrderDetail>(`/orders/${segment(ref)}`);
  const action = useAction();

  return (
    <Stack>
      <Anchor component={Link} to="/orders" size="sm">
        <Trans>All orders</Trans>
      </Anchor>
      <PageTitle>{t`Order ${ref}`}</PageTitle>
      <ResultAlert result={action.result} onClose={action.clear} />
      <DataView result={result}>
        {(detail) => (
          <Stack gap="xl">
            <OrderSummary order={detail.order} />
            {detail.policy && <PolicyPanel reference={detail.order.merchant_reference} policy={detail.policy} admin={admin} action={action} onDone={result.reload} />}
            <OrderContractView contract={detail.contract} />
            <RefundsTable detail={detail} admin={admin} action={action} onDone={result.reload} />
            <NoticesTable notices={detail.notices} />
            <MailsTable mails={detail.mails} />
          </Stack>
        )}
      </DataView>
    </Stack>
  );
}
