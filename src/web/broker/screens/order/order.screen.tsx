import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Stack } from '@mantine/core';
import { Link, useParams } from 'react-router-dom';
import type { CancellationRequestItem, OrderDetail } from '../../../../contract/broker-console';
import { segment, withQuery } from '../../services/console-api';
import { useMe } from '../../services/console-session';
import { useConsoleData } from '../../services/use-console-data';
import { DataView, LoadError } from '../../components/data-view';
import { PageTitle } from '../../components/page-title';
import { ResultAlert } from '../../components/result-alert';
import { useAction } from '../../components/use-action';
import { OrderContractView } from './order-contract-view';
import { OrderSummary } from './order-summary';
import { MailsTable, NoticesTable, RefundsTable } from './order-tables';
import { CancellationRequestPanel } from './cancellation-request-panel';
import { PolicyPanel } from './policy-panel';

/**
 * One order's whole story (GET /orders/:ref): its facts, policy, what was bought, refunds,
 * gateway notices and e-mails, with the actions the role may take. A customer's request to cancel
 * the policy (GET /cancellation-requests?policy=) shows above the policy, where it is worked.
 * After an action the order and the request are read again; the answer shows at the top.
 */
export function OrderScreen() {
  const { t } = useLingui();
  const { ref = '' } = useParams();
  const me = useMe();
  const admin = me.role === 'admin';
  const result = useConsoleData<OrderDetail>(`/orders/${segment(ref)}`);
  const action = useAction();
  const policyNumber = result.data?.policy?.number ?? null;
  const requests = useConsoleData<CancellationRequestItem[]>(policyNumber ? withQuery('/cancellation-requests', { status: 'all', policy: policyNumber }) : null);
  const request = requests.data?.[0] ?? null;
  const reload = () => {
    result.reload();
    requests.reload();
  };

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
            {requests.error && <LoadError error={requests.error} onRetry={requests.reload} />}
            {detail.policy && request && <CancellationRequestPanel request={request} admin={admin} action={action} onDone={reload} />}
            {detail.policy && (
              <PolicyPanel
                reference={detail.order.merchant_reference}
                policy={detail.policy}
                admin={admin}
                action={action}
                onDone={reload}
                requestedReason={request?.status === 'open' ? request.reason : null}
              />
            )}
            <OrderContractView contract={detail.contract} />
            <RefundsTable detail={detail} admin={admin} action={action} onDone={reload} />
            <NoticesTable notices={detail.notices} />
            <MailsTable mails={detail.mails} />
          </Stack>
        )}
      </DataView>
    </Stack>
  );
}
