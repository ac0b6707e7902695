import { useCallback, useEffect, useState } from 'react';
import { Alert, Badge, Button, Center, Grid, Group, Loader, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconCircleCheck, IconDownload, IconFirstAidKit, IconPhone, IconRepeat, IconSend } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { PolicySection } from './policy-section';
import type { PolicyPage, PolicyStatus } from '../../../contract/policy-page.endpoints';
import { selectIsAgent } from '../../../../machines/journey.selectors';
import { formatIsoDate, formatList, formatMoney } from '../../i18n/format';
import { handOverBuyAgain } from '../../journey/buy-again';
import { JourneyActorContext } from '../../journey/journey-context';
import { LtrText } from '../../components/ltr-text';
import { ApiError } from '../../services/http-client';
import { fetchPolicyPage, resendPolicy } from '../../services/policy-page.service';
import { useAnnounce } from '../../shell/announcer';
import { useApp } from '../../shell/app-context';
import { ErrorView } from '../../shell/error-view';
import { PageHeading } from '../page-heading';
import { NotFoundView } from '../load-failure-view';
import { CancellationPanel } from './cancellation-panel';

type Load = { state: 'loading' } | { state: 'ready'; policy: PolicyPage } | { state: 'notFound' } | { state: 'failed' };

/**
 * /policy/<token> (issue 37 item 2, RULINGS 28): a paid trip's own page, where the customer
 * comes back to print the certificate, send it again, ask for a cancellation before the trip, or
 * buy again for the same travellers. Opened for a journey link to a paid lead, it says the trip
 * is paid (to an agent: that the customer has paid).
 */
export function PolicyScreen() {
  const { t } = useLingui();
  const { lang } = useApp();
  const journey = JourneyActorContext.useActorRef();
  const token = JourneyActorContext.useSelector((snapshot) => snapshot.context.policyToken);
  const paidNotice = JourneyActorContext.useSelector((snapshot) => snapshot.context.paidNotice);
  const isAgent = JourneyActorContext.useSelector(selectIsAgent);
  const [load, setLoad] = useState<Load>({ state: 'loading' });

  useEffect(() => {
    if (!token) return;
    let live = true;
    fetchPolicyPage(token, lang).then(
      (policy) => live && setLoad({ state: 'ready', policy }),
      (error: unknown) => live && setLoad({ state: error instanceof ApiError && error.status === 404 ? 'notFound' : 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [token, lang]);

  const buyAgain = useCallback(
    (policy: PolicyPage) => {
      if (!token) return;
      handOverBuyAgain({ policyToken: token, details: policy.buy_again });
      journey.send({ type: 'policy.buyAgain' });
    },
    [journey, token],
  );

  let body;
  if (load.state === 'loading' || !token) {
    body =
      load.state === 'loading' && token ? (
        <Center py="xl" role="status">
          <Loader aria-hidden="true" />
          <VisuallyHidden>{t`Loading your policy…`}</VisuallyHidden>
        </Center>
      ) : (
        <PolicyNotFound />
      );
  } else if (load.state === 'notFound') {
    body = <PolicyNotFound />;
  } else if (load.state === 'failed') {
    body = <ErrorView headingOrder={2} />;
  } else {
    body = (
      <PolicyDetails
        policy={load.policy}
        token={token}
        notice={paidNotice ? (isAgent ? t`The customer has paid for this trip. Here is its policy.` : t`This trip is paid. Here is its policy.`) : null}
        onChanged={(policy) => setLoad({ state: 'ready', policy })}
        onBuyAgain={() => buyAgain(load.policy)}
      />
    );
  }
  return (
    <>
      <PageHeading testId="screen-policy" title={t`Your policy`} />
      {body}
    </>
  );
}

function PolicyNotFound() {
  const { t } = useLingui();
  return (
    <NotFoundView
      testId="policy-not-found"
      heading={t`We could not find this policy`}
      text={t`The link may be incomplete or mistyped. Open it again from the e-mail we sent with your policy, or contact us and we will help you.`}
    />
  );
}

function StatusBadge({ status }: { status: PolicyStatus }) {
  const { t } = useLingui();
  const label: Record<PolicyStatus, string> = {
    valid: t`In force`,
    not_started: t`Not started yet`,
    expired: t`Expired`,
    cancelled: t`Cancelled`,
  };
  // Filled, in shades dark enough for white text (WCAG 1.4.3).
  const color: Record<PolicyStatus, string> = { valid: 'teal.9', not_started: 'blue.8', expired: 'gray.7', cancelled: 'red.8' };
  return (
    <Badge size="lg" variant="filled" color={color[status]} data-testid="policy-status" data-status={status}>
      {label[status]}
    </Badge>
  );
}

function PolicyDetails({
  policy,
  token,
  notice,
  onChanged,
  onBuyAgain,
}: {
  policy: PolicyPage;
  token: string;
  notice: string | null;
  onChanged: (policy: PolicyPage) => void;
  onBuyAgain: () => void;
}) {
  const { t } = useLingui();
  const { lang } = useApp();
  const phone = policy.insurer.assistance_phone;
  return (
    <Stack gap="lg" data-testid="policy-page">
      {notice && (
        <Alert color="teal" variant="light" icon={<IconCircleCheck aria-hidden="true" />} data-testid="policy-paid-notice">
          {notice}
        </Alert>
      )}
      {/* The first thing a traveller in trouble looks for: at the top, on a phone too. */}
      {phone && (
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} bg="red.0" data-testid="policy-assistance">
          <Group justify="space-between" gap="sm">
            <Stack gap={4} style={{ flex: '1 1 16rem' }}>
              <Group gap="xs" wrap="nowrap">
                <IconFirstAidKit size={22} aria-hidden="true" />
                <Title order={2} fz={18}>
                  {t`Emergency assistance, 24/7`}
                </Title>
              </Group>
              <Text fz="sm">{t`In a medical emergency abroad, call ${policy.insurer.name} first, at any hour.`}</Text>
            </Stack>
            <Button
              component="a"
              href={`tel:${phone.replace(/[^\d+]/g, '')}`}
              color="red.9"
              size="md"
              leftSection={<IconPhone size={18} aria-hidden="true" />}
              aria-label={t`Call emergency assistance on ${phone}`}
              data-testid="policy-assistance-call"
            >
              <LtrText>{phone}</LtrText>
            </Button>
          </Group>
        </Paper>
      )}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="lg">
            <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
              <Stack gap="sm">
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Title order={2} fz={20}>
                    {policy.plan.name}
                  </Title>
                  <StatusBadge status={policy.status} />
                </Group>
                <Text>
                  {t`Policy number`}{' '}
                  <Text component="span" fw={700} ff="monospace">
                    <LtrText testId="policy-number">{policy.policy_number}</LtrText>
                  </Text>
                </Text>
                <Text c="dimmed">
                  {policy.insurer.name} · {policy.plan.coverage}
                  {policy.plan.family ? ` · ${t`Family plan`}` : ''}
                </Text>
                <Text>
                  {t`Medical expenses up to`} <strong>{formatMoney(policy.plan.medical_limit_usd * 100, lang)}</strong>
                </Text>
                {policy.addons.length > 0 && (
                  <Stack gap={4}>
                    <Text fw={600}>{t`Extra covers`}</Text>
                    <Stack gap={2} component="ul" m={0} ps="lg" data-testid="policy-addons">
                      {policy.addons.map((addon) => (
                        <Text component="li" key={addon.code}>
                          {addon.name}
                          {addon.limit_usd !== null && ` — ${t`up to ${formatMoney(addon.limit_usd * 100, lang)} per traveller`}`}
                        </Text>
                      ))}
                    </Stack>
                  </Stack>
                )}
              </Stack>
            </Paper>
            <PolicySection title={t`Trip`} titleSize={20}>
              <Text data-testid="policy-dates">
                {formatIsoDate(policy.trip.start_date, lang)} – {formatIsoDate(policy.trip.end_date, lang)}
              </Text>
              <Text>
                {policy.trip.direction === 'outbound'
                  ? t`From ${policy.trip.source} to ${formatList(policy.trip.destinations, lang)}`
                  : t`From ${formatList(policy.trip.destinations, lang)} to ${policy.trip.source}`}
              </Text>
              <Title order={3} fz={16} mt="xs">
                {t`Insured travellers`}
              </Title>
              <Table.ScrollContainer minWidth={300}>
                <Table data-testid="policy-travellers">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t`Name`}</Table.Th>
                      <Table.Th>{t`Date of birth`}</Table.Th>
                      <Table.Th>{t`Passport`}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {policy.travellers.map((traveller, index) => (
                      <Table.Tr key={index}>
                        <Table.Td>
                          <LtrText>{traveller.name}</LtrText>
                        </Table.Td>
                        <Table.Td>{formatIsoDate(traveller.dob, lang)}</Table.Td>
                        <Table.Td>{traveller.passport ? <LtrText>{traveller.passport}</LtrText> : '—'}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </PolicySection>
            <Receipt policy={policy} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="lg">
            <CertificatePanel policy={policy} token={token} />
            <CancellationPanel policy={policy} token={token} onChanged={onChanged} />
            <PolicySection title={t`Travelling again?`} gap="xs" align="flex-start">
              <Text fz="sm">{t`Get new quotes for the same travellers: only the new dates are needed.`}</Text>
              <Button variant="light" leftSection={<IconRepeat size={18} aria-hidden="true" />} onClick={onBuyAgain} data-testid="policy-buy-again">
                {t`Buy again`}
              </Button>
            </PolicySection>
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

function CertificatePanel({ policy, token }: { policy: PolicyPage; token: string }) {
  const { t } = useLingui();
  const { lang } = useApp();
  const announce = useAnnounce();
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);

  const resend = async () => {
    setSending(true);
    setResult(null);
    try {
      const email = await resendPolicy(token, lang);
      const message = t`We sent the certificate again to ${email}.`;
      setResult({ ok: true, message });
      announce(message);
    } catch (error) {
      const limited = error instanceof ApiError && error.status === 429;
      const message = limited
        ? t`The certificate was sent several times in the last hour. Please try again later, or download it here.`
        : t`We could not send the certificate just now. Please try again in a moment.`;
      setResult({ ok: false, message });
      announce(message, { urgent: true });
    } finally {
      setSending(false);
    }
  };

  return (
    <PolicySection title={t`Certificate`} testId="policy-certificate">
      <Group gap="sm">
        <Button component="a" href={policy.certificate.en} download leftSection={<IconDownload size={18} aria-hidden="true" />} data-testid="certificate-en">
          {t`English (PDF)`}
        </Button>
        <Button component="a" href={policy.certificate.ar} download leftSection={<IconDownload size={18} aria-hidden="true" />} data-testid="certificate-ar">
          {t`Arabic (PDF)`}
        </Button>
      </Group>
      <Text fz="sm" c="dimmed">
        {t`Sent to ${policy.email}`}
      </Text>
      <Button variant="default" onClick={() => void resend()} loading={sending} leftSection={<IconSend size={18} aria-hidden="true" />} style={{ alignSelf: 'flex-start' }} data-testid="policy-resend">
        {t`Send it again`}
      </Button>
      {result && (
        <Text fz="sm" c={result.ok ? 'teal.9' : 'red.9'} data-testid="policy-resend-result">
          {result.message}
        </Text>
      )}
    </PolicySection>
  );
}

function Receipt({ policy }: { policy: PolicyPage }) {
  const { t } = useLingui();
  const { lang } = useApp();
  const money = (cents: number, minus = false) => formatMoney(cents, lang, { cents: true, minus });
  const { receipt } = policy;
  const vatPercent = receipt.vat_percent;
  const rows: [string, string][] = [
    [t`Plan`, money(receipt.plan_cents)],
    ...receipt.addons.map((addon): [string, string] => [addon.name, money(addon.cents)]),
    ...(receipt.discount_cents > 0 ? [[receipt.coupon_code ? t`Discount (${receipt.coupon_code})` : t`Discount`, money(receipt.discount_cents, true)] as [string, string]] : []),
    [t`VAT (${vatPercent}%)`, money(receipt.vat_cents)],
    [t`Stamp fee`, money(receipt.stamp_cents)],
  ];
  return (
    <PolicySection title={t`Receipt`} titleSize={20}>
      <Table data-testid="policy-receipt">
        <Table.Tbody>
          {rows.map(([label, amount]) => (
            <Table.Tr key={label}>
              <Table.Th scope="row" fw={400}>
                {label}
              </Table.Th>
              <Table.Td ta="end">{amount}</Table.Td>
            </Table.Tr>
          ))}
          <Table.Tr>
            <Table.Th scope="row">{t`Total paid`}</Table.Th>
            <Table.Td ta="end" fw={700} data-testid="policy-total">
              {money(receipt.total_cents)}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <Text fz="sm" c="dimmed">
        {t`Payment reference`} <LtrText>{receipt.merchant_reference}</LtrText>
      </Text>
    </PolicySection>
  );
}
