import { Alert, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconClockHour4, IconInfoCircle, IconRefresh, IconSearch } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { selectCanRefresh, selectCanRetry, selectRefund } from '../../../../machines/payment-result/payment-result.selectors';
import type { Language } from '../../../contract/endpoint';
import type { PaymentFailureReason, PaymentStatusData } from '../../../contract/payment.endpoints';
import { formatMoney } from '../../i18n/format';
import { ContactOptions } from '../thank-you/contact-options';
import type { paymentResultLogic } from './payment-result.actors';
import { PolicyCard } from './policy-card';
import { LtrText } from '../../components/ltr-text';

/** The views of /payment-result, one per state of the step (selectPaymentResultView). Amounts show their cents (RULINGS 26). */

type ResultActor = ActorRefFrom<typeof paymentResultLogic>;

/** The first read, or the wait for the gateway's answer: announced, with nothing to press. */
export function WaitingView({ waiting }: { waiting: boolean }) {
  const { t } = useLingui();
  return (
    <Paper withBorder radius="lg" p="xl" role="status" data-testid="payment-waiting" style={{ textAlign: 'center' }}>
      <Loader aria-hidden="true" />
      <Text mt="sm">{waiting ? t`We are waiting for your bank's answer. This usually takes a few seconds.` : t`Checking your payment…`}</Text>
    </Paper>
  );
}

/**
 * Paid: the policy, what was paid, the certificate, and where to ask; and, when the customer paid
 * twice, that the second payment comes back (its own live region, beside the policy's).
 */
export function PaidView({ step, payment, lang }: { step: ResultActor; payment: PaymentStatusData; lang: Language }) {
  const { t } = useLingui();
  const refund = useSelector(step, selectRefund);
  const amount = refund ? formatMoney(refund.amount, lang, { cents: true }) : null;
  return (
    <Stack gap="lg" align="stretch">
      {refund && (
        <Alert color="blue" role="status" icon={<IconInfoCircle aria-hidden="true" />} data-testid="payment-paid-twice">
          <Stack gap={6}>
            <Text>{t`You paid twice for this policy. The second payment of ${amount} will be refunded to your card; you do not need to do anything.`}</Text>
            <Text fz="sm" c="dimmed">
              {t`Payment reference`}: <LtrText testId="payment-reference">{refund.merchant_reference}</LtrText>
            </Text>
          </Stack>
        </Alert>
      )}
      <div role="status" data-testid="payment-paid">
        {payment.policy ? (
          <PolicyCard policy={payment.policy} amount={payment.amount} lang={lang} />
        ) : (
          // Issued in the same transaction as the payment, so this is not expected; the mail still comes.
          <Text>{t`Your payment was successful. Your policy number and certificate are on their way to your e-mail.`}</Text>
        )}
      </div>
      <ContactOptions intro={t`Questions about your policy? Call us toll-free, or message us on WhatsApp.`} />
      <NewQuoteButton step={step} />
    </Stack>
  );
}

/**
 * No policy from this payment (declined, cancelled, the order changed before it was paid, or paid
 * for an order voided meanwhile and refunded): why, and "Try again" back to checkout (a new
 * attempt, a new reference, the plan as it is now).
 */
export function FailedView({ step, payment, lang }: { step: ResultActor; payment: PaymentStatusData; lang: Language }) {
  const { t } = useLingui();
  const canRetry = useSelector(step, selectCanRetry);
  const refund = useSelector(step, selectRefund);
  const reference = payment.merchant_reference;
  // The payment that comes back; named for reason `refund` only.
  const amount = refund ? formatMoney(refund.amount, lang, { cents: true }) : null;
  const reasons: Record<PaymentFailureReason, string> = {
    declined: t`Your bank declined the payment. No money was taken.`,
    cancelled: t`You cancelled the payment.`,
    other: t`The payment could not be completed. Please try again, or contact us if it keeps failing.`,
    changed: t`Your order changed after this payment started, so it could not be paid. No money was taken. Go back to checkout to pay for your plan as it is now.`,
    refund: t`Your payment arrived after your order had changed, so no policy was issued for it. The payment of ${amount} will be refunded in full to your card. Go back to checkout to buy your plan as it is now.`,
  };
  return (
    <Stack gap="lg">
      <Alert color="red" icon={<IconAlertCircle aria-hidden="true" />} title={payment.reason === 'refund' ? t`Your payment will be refunded` : t`Payment not completed`} data-testid="payment-failed">
        <Stack gap={6}>
          <Text>{reasons[payment.reason ?? 'other']}</Text>
          <Text fz="sm" c="dimmed">
            {t`Amount`}: {formatMoney(payment.amount, lang, { cents: true })} · {t`Payment reference`}: <LtrText testId="payment-reference">{reference}</LtrText>
          </Text>
        </Stack>
      </Alert>
      <Group gap="sm">
        <Button size="md" leftSection={<IconRefresh size={18} aria-hidden="true" />} disabled={!canRetry} onClick={() => step.send({ type: 'result.retry' })} data-testid="payment-try-again">
          {t`Try again`}
        </Button>
        <NewQuoteButton step={step} />
      </Group>
      <ContactOptions intro={t`Need help with your payment? Call us toll-free, or message us on WhatsApp.`} />
    </Stack>
  );
}

/** The gateway's answer did not arrive while the page waited: it will come by e-mail; Refresh looks again. */
export function UnconfirmedView({ step }: { step: ResultActor }) {
  const { t } = useLingui();
  return (
    <Stack gap="lg">
      <Alert color="yellow" role="status" icon={<IconClockHour4 aria-hidden="true" />} title={t`No answer from your bank yet`} data-testid="payment-unconfirmed">
        {t`We have not received your bank's answer yet. We will e-mail you as soon as it arrives, so there is no need to pay again.`}
      </Alert>
      <Group gap="sm">
        <RefreshButton step={step} />
        <NewQuoteButton step={step} />
      </Group>
      <ContactOptions intro={t`Need help with your payment? Call us toll-free, or message us on WhatsApp.`} />
    </Stack>
  );
}

/** No order to show: no lead in the address (a refused return), or no such order of the lead. */
export function NotFoundView({ step }: { step: ResultActor }) {
  const { t } = useLingui();
  return (
    <Stack gap="lg">
      <Alert color="gray" role="status" icon={<IconSearch aria-hidden="true" />} data-testid="payment-not-found">
        {t`This link does not lead to a payment we know. If money was taken from your card, contact us and we will check it for you.`}
      </Alert>
      <ContactOptions intro={t`Call us toll-free, or message us on WhatsApp.`} />
      <NewQuoteButton step={step} variant="filled" />
    </Stack>
  );
}

/** The order could not be read (network, server): say so, and read again on Refresh. */
export function ReadFailedView({ step }: { step: ResultActor }) {
  const { t } = useLingui();
  return (
    <Stack gap="lg">
      <Alert color="red" icon={<IconAlertCircle aria-hidden="true" />} title={t`An error occurred`} data-testid="payment-read-failed">
        {t`We could not check your payment just now. Please refresh to try again; you will not be charged twice.`}
      </Alert>
      <Group gap="sm">
        <RefreshButton step={step} />
      </Group>
    </Stack>
  );
}

function RefreshButton({ step }: { step: ResultActor }) {
  const { t } = useLingui();
  const canRefresh = useSelector(step, selectCanRefresh);
  return (
    <Button leftSection={<IconRefresh size={18} aria-hidden="true" />} disabled={!canRefresh} onClick={() => step.send({ type: 'result.refresh' })} data-testid="payment-refresh">
      {t`Refresh`}
    </Button>
  );
}

function NewQuoteButton({ step, variant = 'subtle' }: { step: ResultActor; variant?: 'subtle' | 'filled' }) {
  const { t } = useLingui();
  return (
    <Button variant={variant} onClick={() => step.send({ type: 'result.newQuote' })} style={{ alignSelf: 'flex-start' }}>
      {t`Start a new quote`}
    </Button>
  );
}
